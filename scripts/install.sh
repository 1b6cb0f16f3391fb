#!/usr/bin/env bash
# Installs Soundstage for C and C++ games and for the desktop:
#   PREFIX/lib/libsoundstage.so.X.Y.Z (+ .so.0 and .so links)   the C API, self-contained
#   PREFIX/include/soundstage.h                                  its header
#   PREFIX/lib/pkgconfig/soundstage.pc                           for pkg-config
#   PREFIX/include/soundstage/apple/                             Core Audio's headers by Apple's
#   PREFIX/lib/pkgconfig/soundstage-audiotoolbox.pc              names, for ported iOS code
#   PREFIX/bin/soundstage                                        the command and daemon
#   PREFIX/lib/systemd/user/soundstage.service                   the daemon as a user service
#   PREFIX/share/soundstage/sound-theme, PREFIX/share/doc/soundstage
# and records them in PREFIX/share/soundstage/install-manifest, which --uninstall reads.
#
#   scripts/install.sh [--prefix DIR]              (default /usr/local)
#   scripts/install.sh --uninstall [--prefix DIR]  removes exactly what was installed
#
# DESTDIR, if set, is prepended to every path written (for packagers); the files still name PREFIX.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=/usr/local
uninstall=false
while [ $# -gt 0 ]; do
    case $1 in
        --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a directory" >&2; exit 64; }; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --uninstall) uninstall=true; shift ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
case $prefix in /*) ;; *) prefix="$PWD/$prefix" ;; esac
prefix=${prefix%/}
root="${DESTDIR:-}$prefix"
manifest="$root/share/soundstage/install-manifest"

if $uninstall; then
    [ -f "$manifest" ] || { echo "install.sh: nothing installed in $prefix (no $manifest)" >&2; exit 1; }
    # Files first, then the directories they were in and those directories' parents, deepest
    # first, when empty (never PREFIX's own bin, lib, include or share).
    while IFS= read -r path; do rm -f "${DESTDIR:-}$path"; done < "$manifest"
    while IFS= read -r path; do
        dir=$(dirname "$path")
        while [ "${dir#"$prefix"/*/}" != "$dir" ]; do echo "$dir"; dir=$(dirname "$dir"); done
    done < "$manifest" | sort -ru | while IFS= read -r dir; do rmdir "${DESTDIR:-}$dir" 2>/dev/null || true; done
    rm -f "$manifest"
    rmdir "$(dirname "$manifest")" 2>/dev/null || true
    echo "install.sh: removed Soundstage from $prefix"
    exit 0
fi

scripts/build-c-library.sh --cli > /dev/null
stage=.build-c/prefix
version=$(sed -n 's/^Version: //p' "$stage/lib/pkgconfig/soundstage.pc")
major=${version%%.*}
installed=()
put() {   # put MODE SOURCE DEST (DEST relative to the prefix)
    install -D -m "$1" "$2" "$root/$3"
    installed+=("$prefix/$3")
}
link() {  # link TARGET NAME (NAME relative to the prefix)
    ln -sfn "$1" "$root/$2"
    installed+=("$prefix/$2")
}

put 755 "$stage/lib/libsoundstage.so.$version" "lib/libsoundstage.so.$version"
link "libsoundstage.so.$version" "lib/libsoundstage.so.$major"
link "libsoundstage.so.$major" "lib/libsoundstage.so"
put 644 include/soundstage.h include/soundstage.h
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" scripts/soundstage.pc.in > "$stage/soundstage.pc"
put 644 "$stage/soundstage.pc" lib/pkgconfig/soundstage.pc
while IFS= read -r header; do
    put 644 "$stage/include/soundstage/apple/$header" "include/soundstage/apple/$header"
done < <(cd "$stage/include/soundstage/apple" && find . -name '*.h' | sed 's|^\./||' | sort)
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" scripts/soundstage-audiotoolbox.pc.in > "$stage/soundstage-audiotoolbox.pc"
put 644 "$stage/soundstage-audiotoolbox.pc" lib/pkgconfig/soundstage-audiotoolbox.pc
put 755 .build-capi/release/soundstage bin/soundstage
sed -e "s|/usr/local/bin/soundstage|$prefix/bin/soundstage|" \
    -e "s|file:///usr/local/share/doc|file://$prefix/share/doc|" \
    -e "s|^ExecStart=|Environment=SOUNDSTAGE_DATA_DIR=$prefix/share/soundstage\nExecStart=|" \
    docs/systemd/soundstage.service > "$stage/soundstage.service"
put 644 "$stage/soundstage.service" lib/systemd/user/soundstage.service
while IFS= read -r file; do
    put 644 "assets/$file" "share/soundstage/$file"
done < <(cd assets && find sound-theme -type f | sort)
for doc in c-api.md audiotoolbox.md protocol.md api-guide.md; do put 644 "docs/$doc" "share/doc/soundstage/$doc"; done

mkdir -p "$(dirname "$manifest")"
printf '%s\n' "${installed[@]}" > "$manifest"
echo "install.sh: installed Soundstage $version in $prefix (${#installed[@]} files; --uninstall removes them)"
if [ -z "${DESTDIR:-}" ] && [ "$(id -u)" -eq 0 ] && { [ "$prefix" = /usr/local ] || [ "$prefix" = /usr ]; }; then
    ldconfig
elif ! pkg-config --variable=prefix soundstage 2>/dev/null | grep -qx "$prefix"; then
    echo "install.sh: to build and run against it:"
    echo "  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}"
    echo "  export LD_LIBRARY_PATH=$prefix/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
fi
