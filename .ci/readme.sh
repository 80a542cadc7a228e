#!/usr/bin/env bash
# The documentation's commands run as printed: README.md and every docs/*.md page (or the files
# given). Every line of a fenced code block that starts with `./ridgeline ` (in a ```sh block) or
# `$ ./ridgeline ` (in an output block) is run from the repository root, continuation lines
# (ending in `\`) joined:
#   * it must exit 0, unless the block shows its output and that output starts with `ridgeline: `
#     (a documented error), or the command is a `plan` whose shown output says nothing meets the
#     objectives (exit 3);
#   * for a `$ ` command, every output line the page shows (except lines with `...`/`…`, which
#     abbreviate) must appear verbatim in what the command prints (stdout and stderr).
# A block is shown without being run (an expensive calibrate, a full cross-validation, a large
# sweep) when the line before its opening fence is exactly `<!-- readme.sh: not run -->`.
# `./ridgeline shell FILE` lines run the JShell script FILE. Files the commands write go to a
# temporary folder (the commands run there, with the repository's examples/ linked in and an empty
# docs/ folder for the charts they write).
#   .ci/readme.sh [FILE.md ...]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [ $# -gt 0 ]; then files=("$@"); else files=(README.md docs/*.md); fi
# the launcher builds the jar first if it is missing or stale (as for a new user)
"$root/ridgeline" --version >/dev/null || { echo "build failed: $root/.ridgeline-build.log"; exit 2; }
work=$(mktemp -d)
mkdir -p "$work/docs"
ln -s "$root/examples" "$work/examples"
printf '#!/usr/bin/env bash\nexec "%s/ridgeline" "$@"\n' "$root" > "$work/ridgeline"
chmod +x "$work/ridgeline"
# commands: one record per command, "<file>\t<kind>\t<command>\t<documented error 0|1>\t<expected
# output lines joined by \x1f>"
awk '
  BEGIN { inblock = 0; skip = 0; notrun = 0; cmd = ""; kind = ""; err = 0; seen = 0; OFS = "\t" }
  FNR == 1 { flush(); inblock = 0; skip = 0; notrun = 0 }
  function flush() {
    if (cmd != "") { print FILENAME, kind, cmd, err, expect }
    cmd = ""; expect = ""; kind = ""; err = 0; seen = 0
  }
  { t = $0; sub(/^ +/, "", t) }
  t ~ /^```/ {
    if (inblock) { flush(); inblock = 0; skip = 0 } else { inblock = 1; skip = notrun }
    notrun = 0; next
  }
  !inblock { notrun = (t == "<!-- readme.sh: not run -->"); next }
  skip { next }
  cont { cmd = cmd " " t; cont = sub(/ *\\$/, "", cmd); next }
  t ~ /^\$ \.\/ridgeline / || t ~ /^\.\/ridgeline / {
    flush()
    kind = (t ~ /^\$ /) ? "shown" : "plain"
    cmd = t; sub(/^\$ /, "", cmd); sub(/ +# .*$/, "", cmd)
    cont = sub(/ *\\$/, "", cmd)
    next
  }
  kind == "shown" && !seen { seen = 1; if (t ~ /^ridgeline: /) err = 1 }
  kind == "shown" && !/\.\.\./ && !/…/ { expect = expect (expect == "" ? "" : "\037") $0 }
  END { flush() }
' "${files[@]}" > "$work/commands.tsv"
n=0; failed=0
while IFS=$'\t' read -r file kind cmd err expect; do
  n=$((n + 1))
  out="$work/out-$n.txt"
  start=$(date +%s)
  (cd "$work" && bash -c "$cmd" >"$out" 2>&1 </dev/null)
  rc=$?
  secs=$(( $(date +%s) - start ))
  ok=1
  if [ "$err" = 1 ]; then
    # a documented error: one line, non-zero status
    [ $rc -ne 0 ] || ok=0
  elif [ $rc -ne 0 ]; then
    if [ $rc -eq 3 ] && [[ "$cmd" == *" plan "* ]]; then :; else ok=0; fi
  fi
  missing=""
  if [ "$kind" = "shown" ] && [ -n "$expect" ]; then
    sed 's/[[:space:]]*$//' "$out" > "$out.trimmed"
    while IFS= read -r line; do
      line="${line%"${line##*[![:space:]]}"}"
      [ -z "$line" ] && continue
      grep -qxF -- "$line" "$out.trimmed" || missing="$missing"$'\n'"    missing: $line"
    done < <(printf '%s' "$expect" | tr '\037' '\n')
  fi
  if [ $ok -eq 1 ] && [ -z "$missing" ]; then
    echo "ok   (${secs}s) $file: $cmd"
  else
    failed=$((failed + 1))
    echo "FAIL (rc $rc, ${secs}s) $file: $cmd$missing"
    sed 's/^/    | /' "$out" | head -20
  fi
done < "$work/commands.tsv"
echo "readme: $n commands in ${#files[@]} files, $failed failed"
if [ $failed -eq 0 ]; then rm -rf "$work"; exit 0; fi
echo "outputs in $work"; exit 1
