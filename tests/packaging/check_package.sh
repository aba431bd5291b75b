#!/usr/bin/env bash
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# check_package.sh BUILD_DIR VERSION: installs the build into a temporary prefix and checks the
# tree (files, desktop file, AppStream metainfo, man page, the binary's --version and --help), then
# makes the Debian package with CPack and checks its control fields and contents. Installs nothing
# system-wide; the build must be complete (the test does not build).
set -euo pipefail
build=$(realpath "$1")
version=$2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
need() {
    [ -e "$1" ] || fail "missing: ${1#"$root"/}"
}

id=dev.converge.Converge
# A prefix of .../usr, as the package has it, so that appstreamcli can check the tree.
root=$tmp/root/usr
cmake --install "$build" --prefix "$root" >/dev/null

# The installed tree.
need "$root/bin/converge"
[ -x "$root/bin/converge" ] || fail "bin/converge is not executable"
need "$root/share/applications/$id.desktop"
need "$root/share/metainfo/$id.metainfo.xml"
need "$root/share/icons/hicolor/scalable/apps/$id.svg"
need "$root/share/man/man1/converge.1.gz"
need "$root/share/bash-completion/completions/converge"
need "$root/share/doc/converge/copyright"
need "$root/share/converge/samples/local-emulators/storage.yaml"
need "$root/share/converge/samples/local-emulators/dynamodb.yaml"

# Desktop integration: the validators, and the names that tie the files together.
desktop=$root/share/applications/$id.desktop
metainfo=$root/share/metainfo/$id.metainfo.xml
desktop-file-validate "$desktop" || fail "desktop-file-validate"
# validate-tree also checks that the desktop file the metainfo launches is there.
appstreamcli validate-tree --no-net "$tmp/root" >"$tmp/appstream.log" 2>&1 ||
    { cat "$tmp/appstream.log" >&2; fail "appstreamcli validate-tree"; }
grep -qx "Icon=$id" "$desktop" || fail "the desktop file's Icon is not $id"
grep -qx "Exec=converge %f" "$desktop" || fail "the desktop file does not run converge"
grep -q "<id>$id</id>" "$metainfo" || fail "the metainfo id is not $id"
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" ||
    fail "the metainfo does not launch $id.desktop"
grep -q "<screenshot type=\"default\">" "$metainfo" || fail "the metainfo has no screenshot"
grep -q "<release version=\"$version\"" "$metainfo" ||
    fail "the metainfo has no release $version (update <releases>)"
xmllint --noout "$root/share/icons/hicolor/scalable/apps/$id.svg" ||
    fail "the icon is not valid XML"

# The man page renders without warnings and is of this version.
man_log=$tmp/man.log
MANWIDTH=80 man --warnings -l "$root/share/man/man1/converge.1.gz" \
    >"$tmp/man.txt" 2>"$man_log" || fail "man could not render converge.1"
[ ! -s "$man_log" ] || { cat "$man_log" >&2; fail "man warned about converge.1"; }
zcat "$root/share/man/man1/converge.1.gz" | grep -q "^\.TH CONVERGE 1 .*\"Converge $version\"" ||
    fail "the man page is not of version $version (update .TH)"
for command in apply get describe delete claim reconcile refresh events export run help; do
    grep -q "^       $command\b" "$tmp/man.txt" || fail "the man page does not describe '$command'"
done

# The installed binary answers without a display and without touching a workspace.
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/config XDG_DATA_HOME=$tmp/home/data
out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$root/bin/converge" --version) ||
    fail "converge --version exited $?"
[ "$out" = "converge $version" ] || fail "converge --version printed '$out'"
help=$(env -u DISPLAY -u WAYLAND_DISPLAY "$root/bin/converge" --help) ||
    fail "converge --help failed"
for command in apply get describe delete claim reconcile refresh events export run; do
    grep -q "^  $command " <<<"$help" || fail "converge --help does not list '$command'"
done
[ ! -e "$HOME/data" ] || fail "--version or --help created $(find "$HOME/data" | head -3)"

# The Debian package.
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/deb" >"$tmp/cpack.log" 2>&1 ||
    { cat "$tmp/cpack.log" >&2; fail "cpack -G DEB"; }
deb=$(find "$tmp/deb" -maxdepth 1 -name 'converge_*.deb' | head -1)
if [ -z "$deb" ]; then
    fail "cpack made no converge_*.deb"
else
    info=$(dpkg-deb -I "$deb")
    field() { sed -n "s/^ $1: //p" <<<"$info"; }
    [ "$(field Package)" = converge ] || fail "Package is '$(field Package)'"
    [ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)'"
    depends=$(field Depends)
    echo "Depends: $depends"
    names=$(tr ',' '\n' <<<"$depends" | sed 's/(.*)//; s/^ *//; s/ *$//')
    for p in libqt6core6 libqt6gui6 libqt6widgets6 libqt6network6 libqt6sql6-sqlite libqt6svg6 \
        libyaml-cpp0.7 libqt6keychain1; do
        grep -qx "$p" <<<"$names" || fail "Depends does not name $p"
    done
    # Every name is a real package (they are installed here: the build needs them) ...
    for p in $names; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
            fail "Depends names $p, which is not an installed package on this machine"
    done
    # ... and every library the binary links comes from one of them.
    while read -r soname; do
        # `NAME => PATH (address)`, or for the dynamic loader `PATH (address)`.
        path=$(ldd "$root/bin/converge" |
            awk -v n="$soname" '$1 == n {print $3} $1 ~ ("/" n "$") {print $1}')
        # dpkg knows a file by the path its package gave, with or without /usr (merged /usr).
        owner=""
        for candidate in ${path:+"$(realpath "$path")" "$path"} "*/$soname"; do
            owner=$( (dpkg -S "$candidate" 2>/dev/null || true) | head -1 | cut -d: -f1)
            [ -z "$owner" ] || break
        done
        [ -n "$owner" ] || { fail "no package owns $soname ($path)"; continue; }
        grep -qx "$owner" <<<"$names" || fail "$soname comes from $owner, not in Depends"
    done < <(objdump -p "$root/bin/converge" | awk '$1 == "NEEDED" {print $2}')

    contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
    for f in ./usr/bin/converge ./usr/share/applications/$id.desktop \
        ./usr/share/metainfo/$id.metainfo.xml ./usr/share/icons/hicolor/scalable/apps/$id.svg \
        ./usr/share/man/man1/converge.1.gz ./usr/share/bash-completion/completions/converge \
        ./usr/share/doc/converge/copyright \
        ./usr/share/converge/samples/local-emulators/storage.yaml \
        ./usr/share/converge/samples/local-emulators/dynamodb.yaml; do
        grep -qx "$f" <<<"$contents" || fail "the package does not contain $f"
    done
    if grep -v '^\./usr/' <<<"$contents" | grep -qv '^\./$'; then
        fail "the package installs outside /usr: $(grep -v '^\./usr/' <<<"$contents" | head -3)"
    fi
fi

if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "packaging: all checks passed"
