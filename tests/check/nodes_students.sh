#!/bin/sh
# The student outputs of nodes.script, computed by the CLI (none is typed
# by hand):
#   nodes-right.student   what the script prints (rendezvous)
#   nodes-ketama.student  the same script under ALGO ketama: other-algorithm
#   nodes-jump.student    under ALGO jump, which indexes the list,
#                         servers[jump(key, 10)] and after the removal
#                         servers[jump(key, 9)]: index-renumbering
#   nodes-format.student  the right output with a tab after a key's ':' and
#                         no space after a LOAD line's ':'
# usage, in tests/check/: sh nodes_students.sh ../../build/<dir>/jumphash
set -eu
cli=$1
tab=$(printf '\t')
"$cli" nodes.script > nodes-right.student
sed 's/^ALGO rendezvous$/ALGO ketama/' nodes.script | "$cli" - > nodes-ketama.student
sed 's/^ALGO rendezvous$/ALGO jump/' nodes.script | "$cli" - > nodes-jump.student
sed -e "2s/: /:$tab/" -e '/^10\.0\.0\.3:11211: /s/: /:/' nodes-right.student > nodes-format.student
