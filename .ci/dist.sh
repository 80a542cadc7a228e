#!/usr/bin/env bash
# The release archive runs with only a Java runtime: unzip dist/target/ridgeline-VERSION.zip into a
# temporary folder, build a bare runtime (jlink: java.base, java.desktop for the charts,
# java.logging) and run the main job and a chart with PATH holding nothing but that runtime's
# bin/, then once through a symbolic link with JAVA_HOME set. Also checks that no runtime
# artifact (the library jars, the shaded jar) carries test classes or a test library.
#   .ci/dist.sh     (after `mvn package` or `mvn verify`; builds the archive if it is missing)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
version=$(sed -n 's|^  <version>\(.*\)</version>$|\1|p' pom.xml | head -1)
zip="$root/dist/target/ridgeline-$version.zip"
if [ ! -f "$zip" ]; then
  mvn -B -q -o -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl dist -am package \
    >/tmp/ridgeline-dist-build.log 2>&1 || { echo "dist: build failed: /tmp/ridgeline-dist-build.log"; exit 2; }
fi
fail() { echo "dist: $*" >&2; exit 1; }

# no test classes or test libraries in what users run or link against
for jar in core hardware models serving validation cli web; do
  for f in "$root/$jar/target/ridgeline-$jar-$version.jar" "$root/$jar/target/ridgeline-$jar-$version-all.jar"; do
    [ -f "$f" ] || continue
    if unzip -Z1 "$f" | grep -E '^(org/junit|org/assertj|org/quicktheories|com/tngtech/archunit|org/opentest4j)/|Test\.class$|/CliRun\.class$' | head -3 | grep -q .; then
      fail "$(basename "$f") carries test classes or a test library"
    fi
  done
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unzip -q "$zip" -d "$work"
home="$work/ridgeline-$version"
for f in bin/ridgeline bin/ridgeline.bat lib/ridgeline-web-$version-all.jar lib/ridgeline.jsh LICENSE README.txt CHANGELOG.md; do
  [ -e "$home/$f" ] || fail "the archive has no $f"
done
[ -x "$home/bin/ridgeline" ] || fail "bin/ridgeline is not executable"
grep -q $'\r$' "$home/bin/ridgeline.bat" || fail "bin/ridgeline.bat has no CRLF line ends"
grep -q $'\r' "$home/bin/ridgeline" && fail "bin/ridgeline has CR characters"

# a bare Java 17 runtime: no javac, no jshell, no Maven (jdk.httpserver for serve)
jre="$work/jre"
jlink --add-modules java.base,java.desktop,java.logging,jdk.httpserver --strip-debug --no-header-files \
  --no-man-pages --output "$jre"
[ -x "$jre/bin/javac" ] && fail "the runtime has javac"
mkdir "$work/run"
cd "$work/run"
env -i PATH="$jre/bin" HOME="$work/run" "$home/bin/ridgeline" frontier --model llama-3.1-70b \
  --chip h100-sxm --count 8 --plot frontier.png > frontier.txt 2> frontier.err \
  || { cat frontier.err >&2; fail "bin/ridgeline frontier failed with only a JRE on the PATH"; }
grep -q '^colocated: llama-3.1-70b on 8× h100-sxm' frontier.txt || fail "frontier printed no header: $(head -3 frontier.txt)"
[ "$(grep -c '^colocated ' frontier.txt)" -ge 5 ] || fail "frontier printed fewer than 5 points"
[ -s frontier.png ] || fail "frontier --plot wrote no chart"
# the JShell start-up is refused clearly without a JDK
if env -i PATH="$jre/bin" "$home/bin/ridgeline" shell > shell.out 2>&1; then fail "shell ran without jshell"; fi
grep -q '^ridgeline: shell needs jshell' shell.out || fail "shell without a JDK: $(cat shell.out)"

# serve: prints its address, answers the API and the page, stops on SIGTERM (Ctrl-C's shutdown)
env -i PATH="$jre/bin" HOME="$work/run" "$home/bin/ridgeline" serve --port 0 > serve.out 2> serve.err &
serve_pid=$!
for _ in $(seq 1 100); do grep -q '^Ridgeline serving on ' serve.out && break; sleep 0.1; done
url=$(sed -n 's|^Ridgeline serving on \(http://.*/\)$|\1|p' serve.out)
[ -n "$url" ] || { kill "$serve_pid"; fail "serve printed no address: $(cat serve.out serve.err)"; }
if command -v curl >/dev/null; then
  curl -sf "${url}api/frontier?model=llama-3.1-70b&chip=h100-sxm&count=8" | grep -q '"model" : "llama-3.1-70b"' \
    || { kill "$serve_pid"; fail "serve: /api/frontier did not answer the main job"; }
  curl -sf "$url" | grep -qi '<html' || { kill "$serve_pid"; fail "serve: / is not the page"; }
fi
kill "$serve_pid"
wait "$serve_pid" 2>/dev/null || true

# through a symbolic link (a link in ~/bin), with JAVA_HOME instead of the PATH
mkdir links
ln -s "$home/bin/ridgeline" links/ridgeline
JAVA_HOME="$jre" links/ridgeline --version > version.txt 2>&1 || fail "--version through a link: $(cat version.txt)"
grep -q "^ridgeline ${version%-SNAPSHOT}" version.txt || fail "--version printed $(cat version.txt)"
echo "dist: $(basename "$zip") ($(du -k "$zip" | cut -f1) kB) runs with only a Java runtime"
