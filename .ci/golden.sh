#!/usr/bin/env bash
# Golden outputs of the documented commands and of `validate` on the shipped cases (JSON, CSV).
#   .ci/golden.sh            build the CLI jar, run every command into a temporary folder and diff
#                            against .ci/golden/ (exit 1 on any difference)
#   .ci/golden.sh --update   rewrite .ci/golden/ (commit it with the change that explains the difference)
# A refactoring keeps these identical; a change of the model says in its commit why they moved.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -B -q -o -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl web -am package \
  >/tmp/ridgeline-golden-build.log 2>&1 || { echo "build failed: /tmp/ridgeline-golden-build.log"; exit 2; }
jar="$root/web/target/ridgeline-web-0.1.0-SNAPSHOT-all.jar"
out=$(mktemp -d)
run() {
  name=$1; shift
  java -Djava.awt.headless=true -jar "$jar" "$@" > "$out/$name.json" 2> "$out/$name.err"
  echo "rc=$?" >> "$out/$name.err"
  sed -i '/points in .* s, .* points\/s$/d' "$out/$name.err"
}
run chips chips --json
run models models --json
run frontier-main frontier --model llama-3.1-70b --chip h100-sxm --count 8 --json
run frontier-main-ideal frontier --model llama-3.1-70b --chip h100-sxm --count 8 --json --efficiency ideal
run frontier-main-csv frontier --model llama-3.1-70b --chip h100-sxm --count 8 --csv
run roofline-8b roofline --model llama-3.1-8b --chip h100-sxm --batch 1 --context 1024 --json
run roofline-8b-ideal roofline --model llama-3.1-8b --chip h100-sxm --batch 1 --context 1024 --json --efficiency ideal
run roofline-ds roofline --model deepseek-v3 --chip h200-sxm --count 8 --batch 64 --context 4096 --json
run roofline-vllm roofline --model llama-3.1-8b --chip h100-sxm --batch 8 --context 2048 --json --engine vllm
run strat-llama frontier --model llama-3.1-70b --chip h100-sxm --count 8 --weights fp8 --strategy colocated,pd,afd,pd:groq-lpu:576 --efficiency ideal --json
run strat-llama-cal frontier --model llama-3.1-70b --chip h100-sxm --count 8 --weights fp8 --strategy colocated,pd,afd,static --json
run strat-ds frontier --model deepseek-v3 --chip b200 --count 8 --strategy colocated,pd,afd,pd:groq-lpu --efficiency ideal --json
run strat-ds-cal frontier --model deepseek-v3 --chip b200 --count 8 --strategy all --json
run spec frontier --model llama-3.1-70b --chip h100-sxm --count 8 --spec-draft llama-3.1-8b --spec-length 3 --spec-acceptance 0.8 --json
run ep frontier --model deepseek-v3 --chip h200-sxm --count 16 --tp 8 --ep 8 --attention-dp 2 --json
run pp frontier --model llama-3.1-70b --chip h100-sxm --count 8 --tp 4 --pp 2 --json
run crossover crossover --model llama-3.1-8b --chip h100-sxm --batch 1 --json
run crossover-ideal crossover --model llama-3.1-8b --chip h100-sxm --batch 64 --json --efficiency ideal
run intensity intensity --model deepseek-v3 --chip h200-sxm --count 8 --json
run plan plan --model llama-3.1-70b --isl 1024 --osl 256 --rate 10 --ttft 0.5 --tpot 0.05 --chips h100-sxm,b200,mi300x --json
run plan-ideal plan --model llama-3.1-70b --isl 1024 --osl 256 --rate 10 --ttft 0.5 --tpot 0.05 --chips h100-sxm,b200,mi300x --json --efficiency ideal
run sweep sweep --grid examples/sweep-grid.json --out "$out/sweep.csv"
sed -i "s#$out#OUT#g" "$out/sweep.err"
run validate validate --json --rows all
run validate-cal validate --json --rows all --efficiency calibrated
if [ "${1:-}" = "--update" ]; then
  rm -rf .ci/golden && mkdir -p .ci/golden && cp "$out"/* .ci/golden/ && echo "updated .ci/golden"
  exit 0
fi
if diff -r -q .ci/golden "$out" >/dev/null; then echo "golden: identical"; rm -rf "$out"; exit 0; fi
diff -r -q .ci/golden "$out"; echo "golden: outputs differ (new ones in $out)"; exit 1
