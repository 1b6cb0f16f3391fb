#!/usr/bin/env bash
# Builds Soundstage's Debian packages into dist/ with dpkg-deb (docs/packaging.md):
#   libsoundstage0      the library (libsoundstage.so.0, self-contained)
#   libsoundstage-dev   the header, the .so link, pkg-config, the C API's docs
#   soundstage          the command and daemon, its systemd user unit, the fallback sound theme,
#                       a man page and the docs
# Depends come from dpkg-shlibdeps; libsoundstage0 carries a shlibs file and an ldconfig trigger.
# Then lintian checks each package (fails on an error). Needs dpkg-dev, fakeroot and lintian.
#   scripts/package-deb.sh            build, check, and print the packages' sizes
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
stage=$(scripts/build-c-library.sh --cli)
version=$(sed -n 's/^Version: //p' "$stage/lib/pkgconfig/soundstage.pc")
debian_version="$version-1"
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
work="$root/dist/build"
rm -rf "$work" dist/*.deb
mkdir -p "$work"

# The pieces every package has: copyright and a compressed changelog under its doc directory.
docs_of() {   # docs_of PACKAGE
    local dir="$work/$1/usr/share/doc/$1"
    install -d "$dir"
    install -m 644 packaging/debian/copyright "$dir/copyright"
    sed "s/@VERSION@/$version/g" packaging/debian/changelog | gzip -9n > "$dir/changelog.Debian.gz"
}

# What dpkg-shlibdeps says the ELF files of a package need, as a Depends value.
depends_of() {   # depends_of PACKAGE FILE...
    local package=$1
    shift
    mkdir -p "$work/shlibs/debian"
    : > "$work/shlibs/debian/control"
    printf 'Source: soundstage\n\nPackage: %s\nArchitecture: any\n' "$package" > "$work/shlibs/debian/control"
    (cd "$work/shlibs" && dpkg-shlibdeps -O -l"$work/libsoundstage0/usr/lib/$multiarch" "$@" 2>/dev/null) |
        sed -n 's/^shlibs:Depends=//p'
}

control() {   # control PACKAGE DEPENDS SECTION DESCRIPTION-LINES...
    local package=$1 depends=$2 section=$3
    shift 3
    local size
    size=$(du -sk --exclude=DEBIAN "$work/$package" | cut -f1)
    install -d "$work/$package/DEBIAN"
    {
        echo "Package: $package"
        echo "Version: $debian_version"
        echo "Architecture: $arch"
        echo "Maintainer: Soundstage authors <soundstage@example.org>"
        echo "Installed-Size: $size"
        [ -n "$depends" ] && echo "Depends: $depends"
        echo "Section: $section"
        echo "Priority: optional"
        echo "Homepage: https://github.com/soundstage/soundstage"
        printf '%s\n' "$@"
    } > "$work/$package/DEBIAN/control"
}

# --- libsoundstage0 ---------------------------------------------------------------------------
lib="$work/libsoundstage0/usr/lib/$multiarch"
install -d "$lib"
install -m 644 "$stage/lib/libsoundstage.so.$version" "$lib/"
ln -s "libsoundstage.so.$version" "$lib/libsoundstage.so.0"
docs_of libsoundstage0
install -d "$work/libsoundstage0/DEBIAN"
echo "libsoundstage 0 libsoundstage0 (>= $version)" > "$work/libsoundstage0/DEBIAN/shlibs"
echo "activate-noawait ldconfig" > "$work/libsoundstage0/DEBIAN/triggers"
control libsoundstage0 "$(depends_of libsoundstage0 "$lib/libsoundstage.so.$version")" libs \
    "Description: positional audio for Linux games (library)" \
    " Soundstage maps a game's scene (a listener, sources, buffers) onto OpenAL" \
    " Soft, decodes sound files with libsndfile, plays on PulseAudio or PipeWire," \
    " manages interruptions like an audio session and keeps a registry of short" \
    " system sounds." \
    " ." \
    " This package holds the shared library, with its C API."

# --- libsoundstage-dev ------------------------------------------------------------------------
dev="$work/libsoundstage-dev"
install -d "$dev/usr/include" "$dev/usr/lib/$multiarch/pkgconfig"
install -m 644 include/soundstage.h "$dev/usr/include/"
ln -s "libsoundstage.so.0" "$dev/usr/lib/$multiarch/libsoundstage.so"
sed -e "s|@PREFIX@|/usr|" -e "s|@VERSION@|$version|" -e "s|^libdir=.*|libdir=\${prefix}/lib/$multiarch|" \
    scripts/soundstage.pc.in > "$dev/usr/lib/$multiarch/pkgconfig/soundstage.pc"
chmod 644 "$dev/usr/lib/$multiarch/pkgconfig/soundstage.pc"
cp -r "$stage/include/soundstage" "$dev/usr/include/"
find "$dev/usr/include/soundstage" -type f -exec chmod 644 {} +
sed -e "s|@PREFIX@|/usr|" -e "s|@VERSION@|$version|" -e "s|^libdir=.*|libdir=\${prefix}/lib/$multiarch|" \
    scripts/soundstage-audiotoolbox.pc.in > "$dev/usr/lib/$multiarch/pkgconfig/soundstage-audiotoolbox.pc"
chmod 644 "$dev/usr/lib/$multiarch/pkgconfig/soundstage-audiotoolbox.pc"
docs_of libsoundstage-dev
install -m 644 docs/c-api.md docs/audiotoolbox.md "$dev/usr/share/doc/libsoundstage-dev/"
control libsoundstage-dev "libsoundstage0 (= $debian_version), libopenal-dev, libsndfile1-dev, libpulse-dev" libdevel \
    "Description: positional audio for Linux games (development files)" \
    " Soundstage maps a game's scene (a listener, sources, buffers) onto OpenAL" \
    " Soft and plays on PulseAudio or PipeWire." \
    " ." \
    " This package holds the C header, the pkg-config files and the C API's" \
    " documentation: cc game.c \$(pkg-config --cflags --libs soundstage)." \
    " Ported iOS and macOS code finds Core Audio's headers by Apple's names" \
    " (AudioToolbox/AudioToolbox.h) through" \
    " \$(pkg-config --cflags --libs soundstage-audiotoolbox)."

# --- soundstage -------------------------------------------------------------------------------
cli="$work/soundstage"
install -d "$cli/usr/bin" "$cli/usr/lib/systemd/user" "$cli/usr/share/soundstage" "$cli/usr/share/man/man1"
install -m 755 .build-capi/release/soundstage "$cli/usr/bin/soundstage"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$cli/usr/bin/soundstage"
sed -e "s|/usr/local/bin/soundstage|/usr/bin/soundstage|" \
    -e "s|file:///usr/local/share/doc/soundstage/protocol.md|man:soundstage(1)|" \
    -e "s|^ExecStart=|Environment=SOUNDSTAGE_DATA_DIR=/usr/share/soundstage\nExecStart=|" \
    -e "s|docs/systemd/soundstage.service ~/.config/systemd/user/|(installed by the soundstage package)|" \
    docs/systemd/soundstage.service > "$cli/usr/lib/systemd/user/soundstage.service"
chmod 644 "$cli/usr/lib/systemd/user/soundstage.service"
(cd assets && find sound-theme -type f | sort) | while IFS= read -r file; do
    install -D -m 644 "assets/$file" "$cli/usr/share/soundstage/$file"
done
docs_of soundstage
for doc in cli.md protocol.md system-sounds.md desktop-audio.md scene-format.md; do
    install -m 644 "docs/$doc" "$cli/usr/share/doc/soundstage/"
done
scripts/make-man-page.sh "$cli/usr/bin/soundstage" "$version" | gzip -9n > "$cli/usr/share/man/man1/soundstage.1.gz"
control soundstage "$(depends_of soundstage "$cli/usr/bin/soundstage")" sound \
    "Description: positional audio for Linux games (command and sound server)" \
    " The soundstage command plays, renders and inspects sound files and scene" \
    " files, and runs the Soundstage daemon (soundstage serve) that plays UI" \
    " sounds and scenes for other programs over a local socket. A systemd user" \
    " unit starts it:" \
    " systemctl --user enable --now soundstage"

for package in libsoundstage0 libsoundstage-dev soundstage; do
    find "$work/$package" -type d -exec chmod 755 {} +
    fakeroot dpkg-deb --build -Zxz "$work/$package" "dist/${package}_${debian_version}_${arch}.deb" > /dev/null
done

# lintian: errors fail the build; warnings print (docs/packaging.md explains those left).
status=0
for deb in dist/*.deb; do
    lintian --tag-display-limit 0 --suppress-tags-from-file packaging/debian/lintian-overrides "$deb" 2>&1 |
        grep -v 'running with root privileges' > "$work/lintian.txt" || true
    if grep -q '^E:' "$work/lintian.txt"; then status=1; fi
    sed 's/^/  /' "$work/lintian.txt"
done
rm -rf "$work"
echo "package-deb.sh: built in dist/:"
for deb in dist/*.deb; do printf '  %-45s %8s bytes (installed %s KiB)\n' "$(basename "$deb")" "$(stat -c %s "$deb")" "$(dpkg-deb -f "$deb" Installed-Size)"; done
[ "$status" -eq 0 ] || { echo "package-deb.sh: lintian reported errors" >&2; exit 1; }
