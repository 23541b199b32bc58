#!/usr/bin/env bash
# mkman.sh DYNRED [SHARE_DIR] > dynred.1: the dynred(1) man page, made from
# what the binary itself prints (`dynred help`, `dynred -version`), so the
# page lists exactly the subcommands and job-file keys of that build.
# SHARE_DIR (PREFIX/share/dynred of an install) goes into FILES.
# make install runs it; `man -l dynred.1` shows the result.
set -euo pipefail
bin=${1:?usage: mkman.sh DYNRED [SHARE_DIR]}
share=${2:-}
help=$("$bin" help)
version=$("$bin" -version)                     # first line: "dynred X.Y.Z (git ...)"
version=${version%%$'\n'*}
version=${version#dynred }
# The date of the page: SOURCE_DATE_EPOCH when a packager sets it
# (reproducible builds), else today.
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%Y-%m-%d)

# The layout of `dynred help` (src/app/main.c PrintHelp, DRConfigPrintSchema):
#   line 1          "dynred: WHAT IT IS."
#   usage lines     up to the first empty line
#   "Subcommands"   then "  NAME   SUMMARY" lines up to an empty line
#   "Job-file keys" then intro lines, "  [range]..." legend, and
#                   "  KEY   -OPTION   <DEFAULT> DESCRIPTION" lines up to an empty line
#   the rest        solver options, one paragraph
awk -v version="$version" -v date="$date" -v share="$share" '
  # roff text: a backslash is \e; a line must not start with . or '"'"'
  function esc(s) { gsub(/\\/, "\\e", s); if (s ~ /^[.'"'"']/) s = "\\&" s; return s }
  # an option name: its hyphens are minus signs
  function opt(s) { gsub(/-/, "\\-", s); return s }
  NR == 1 {
    printf ".TH DYNRED 1 \"%s\" \"dynred %s\" \"User Commands\"\n", date, version
    sub(/^dynred: /, ""); print ".SH NAME"; print "dynred \\- " esc($0)
    print ".SH SYNOPSIS"; print ".nf"; sec = "usage"; next
  }
  sec == "usage" && /^$/ {
    print ".fi"; print ".SH DESCRIPTION"; print desc
    print ".PP"
    print "A job reads a YAML job file (\\fB\\-config\\fR); every key can also be given"
    print "on the command line as an option.  Run in parallel as any MPI program:"
    print "\\fBmpiexec \\-n 4 dynred \\-config JOB.yaml\\fR."
    sec = ""; next
  }
  sec == "usage" && /^Without|^See/ { desc = desc (desc == "" ? "" : "\n") esc($0); next }
  sec == "usage" { sub(/^usage: /, ""); sub(/^ +/, ""); print esc($0); next }
  /^Subcommands/ { print ".SH SUBCOMMANDS"; sec = "sub"; next }
  sec == "sub" && /^$/ { sec = ""; next }
  sec == "sub" { name = $1; sub(/^ +[^ ]+ +/, ""); print ".TP"; print ".B " name; print esc($0); next }
  /^Job-file keys/ { print ".SH JOB\\-FILE KEYS"; print esc($0); sec = "keys"; next }
  sec == "keys" && /^$/ { print ".SH SOLVER OPTIONS"; sec = "rest"; next }
  sec == "keys" && /^  \[/ { sub(/^ +/, ""); print ".PP"; print esc($0); next }
  sec == "keys" {
    key = $1; o = $2; sub(/^ +[^ ]+ +[^ ]+ +/, "")
    d = ""
    if (match($0, /^<[^>]*> /)) { d = substr($0, 2, RLENGTH - 3); $0 = substr($0, RLENGTH + 1) }
    print ".TP"; printf ".BR %s \" (\" %s )\n", key, opt(o)
    print esc($0 (d != "" ? "; default " d : "")); next
  }
  sec == "rest" { print esc($0); next }
  END {
    print ".SH EXIT STATUS"
    print "0 on success; non\\-zero on an error, which is one line on standard error:"
    print "\\fBdynred: error:\\fR, the file, entry and what was expected."
    if (share != "") {
      print ".SH FILES"; print ".TP"; print ".I " esc(share) "/configs"
      print "example job files; copy the directory and run them from the copy"
      print "(outputs are written to the working directory)."
    }
    print ".SH SEE ALSO"
    print ".BR mpiexec (1);"
    print "\\fBdynred\\-plot \\-\\-help\\fR: figures of a result file."
  }
' <<<"$help"
