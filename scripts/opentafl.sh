#!/usr/bin/env bash
# Builds OpenTafl (jslater89/OpenTafl, Java) from its own repository and prepares a folder to
# run its engine mode in, for `tafl match --b otep:...`. Nothing of OpenTafl is copied into
# this repository (its licence forbids reusing its code): it is cloned, built and run here.
#
#   scripts/opentafl.sh [DIR]        # default DIR: target/opentafl
#
# Environment:
#   OPENTAFL_SRC        a git URL or local clone to build from (default: GitHub)
#   OPENTAFL_THINK_S    OpenTafl's own cap on thinking per move, seconds (default 10: the clock
#                       our host sends, one overtime period per move, decides)
#
# Prints the player to pass to `tafl match`, e.g.
#   cargo run --release -p tafl-tools --bin tafl -- match --variant copenhagen --a 5 \
#     --b "otep:$(scripts/opentafl.sh)" --time-ms 2000 --openings 10
# OpenTafl plans an overtime period less 750 ms per move and never answers below about
# 1.75 s, so give it --time-ms 2000 or more (see docs/ai.md, "External engines").
set -euo pipefail
dir=${1:-target/opentafl}
src=${OPENTAFL_SRC:-https://github.com/jslater89/OpenTafl}
think=${OPENTAFL_THINK_S:-10}

need_packages=()
for jar in /usr/share/java/ini4j.jar /usr/share/java/jline2.jar /usr/share/java/javax.json.jar; do
  [ -e "$jar" ] || need_packages=(libini4j-java libjline2-java libjsonp-java)
done
command -v javac >/dev/null || need_packages+=(default-jdk-headless)
if [ ${#need_packages[@]} -gt 0 ]; then
  sudo_if_needed=$([ "$(id -u)" = 0 ] || echo sudo)
  $sudo_if_needed apt-get install -y "${need_packages[@]}" >&2
fi

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ ! -d "$dir/src/.git" ]; then
  git clone --quiet "$src" "$dir/src" >&2
fi
classpath="$dir/src/lib/lanterna.jar:/usr/share/java/ini4j.jar:/usr/share/java/jline2.jar:/usr/share/java/javax.json.jar"
if [ ! -f "$dir/classes/com/manywords/softworks/tafl/OpenTafl.class" ]; then
  mkdir -p "$dir/classes"
  find "$dir/src/src" -name '*.java' > "$dir/sources.txt"
  javac -nowarn -encoding UTF-8 --add-exports java.base/sun.net=ALL-UNNAMED --add-exports java.xml/com.sun.org.apache.xerces.internal.impl.dv.util=ALL-UNNAMED -d "$dir/classes" -cp "$classpath" @"$dir/sources.txt" >&2
fi

# OpenTafl writes saved-games/, engines/ and log/ where it runs, and reads settings.ini there.
mkdir -p "$dir/run"
cat > "$dir/run/settings.ini" <<INI
[config]
thinktime = $think
INI
cat > "$dir/engine" <<SH
#!/bin/sh
cd "$dir/run" && exec java --add-exports java.base/sun.net=ALL-UNNAMED --add-exports java.xml/com.sun.org.apache.xerces.internal.impl.dv.util=ALL-UNNAMED -cp "$dir/classes:$classpath" com.manywords.softworks.tafl.OpenTafl --engine
SH
chmod +x "$dir/engine"
echo "$dir/engine"
