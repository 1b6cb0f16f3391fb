#!/usr/bin/env bash
# Prints soundstage(1), a man page made from the command's own --help texts (the top level's and
# each subcommand's), so that it never disagrees with the command.
#   scripts/make-man-page.sh PATH-TO-SOUNDSTAGE VERSION > soundstage.1
set -euo pipefail
command=$1
version=$2
escape() { sed -e 's/\\/\\e/g' -e 's/^\([.'"'"']\)/\\\&\1/' -e 's/-/\\-/g'; }
cat <<HEAD
.TH SOUNDSTAGE 1 "2026-11-27" "soundstage $version" "User Commands"
.SH NAME
soundstage \\- positional audio for Linux games: inspect, convert, play and serve sounds
.SH SYNOPSIS
.B soundstage
.I subcommand
.RI [ options ]
.SH DESCRIPTION
.nf
HEAD
"$command" --help | escape
echo ".fi"
subcommands=$("$command" --help | sed -n '/^SUBCOMMANDS:/,$p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
for subcommand in $subcommands; do
    echo ".SH \"soundstage $subcommand\""
    echo ".nf"
    "$command" "$subcommand" --help 2>&1 | escape
    echo ".fi"
done
cat <<TAIL
.SH FILES
.TP
.I /usr/lib/systemd/user/soundstage.service
The daemon as a systemd user unit: systemctl \\-\\-user enable \\-\\-now soundstage
.TP
.I \$XDG_RUNTIME_DIR/soundstage/socket
Where the daemon listens.
.SH SEE ALSO
/usr/share/doc/soundstage/cli.md, /usr/share/doc/soundstage/protocol.md
TAIL
