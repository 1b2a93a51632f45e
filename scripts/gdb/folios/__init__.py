"""foliOS GDB helpers, written like Linux's scripts/gdb: one gdb.Command per
helper, with its docstring as the help text.  `help folios` lists them."""
import os

import gdb

from folios import utils, mm, buddy, klog, faults, unwind, folio, tasks  # noqa: F401  (registers commands)


class FoliosPrefix(gdb.Command):
    """foliOS helpers:
  pgwalk VADDR [PGD]   walk the page tables for VADDR (default: CR3)
  pgwalk -p PID VADDR  the same in a task's page tables
  pfn PFN              a page frame: its struct page, address and state
  page ADDR            the same, from a struct page pointer
  folio PFN            the folio holding PFN: mapcounts, MM ID slots, shared bit
  virt2phys VADDR      translate a kernel or user address via the tables
  buddyinfo            free blocks per order, checked against the lists
  klog [N]             the last N lines of the kernel log (default 20)
  pfbreak              stop on page faults, printing CR2, error code, task, VMA
  tasks                the task list: PID, state, parent, mm, MM ID, RSS
  vmas [PID]           a task's VMAs and the folios mapped in each
  usersyms NAME|PID    load a user program's symbols (build/user/bin/NAME)
  linkersyms           linker/NASM symbols as typed $variables"""

    def __init__(self):
        super().__init__("folios", gdb.COMMAND_USER, gdb.COMPLETE_NONE, True)


FoliosPrefix()


def connect():
    """Load the kernel ELF, then attach to QEMU (the order docs/debugging.md explains)."""
    variant = os.environ.get("FOLIOS_VARIANT")
    if not variant and os.path.exists("build/gdb-variant"):
        with open("build/gdb-variant") as f:
            variant = f.read().strip()
    variant = variant or "page-mapcount"
    elf = os.path.join("build", variant, "folios.elf")
    if not os.path.exists(elf):
        print("foliOS: %s not built yet: run ./run-qemu.sh --gdb first" % elf)
        return
    gdb.execute("file " + elf)
    port = utils.gdb_port()
    try:
        gdb.execute("target remote :%d" % port)
        print("foliOS: connected to QEMU on port %d (%s); try 'hbreak kmain', "
              "'continue', 'help folios'" % (port, variant))
    except gdb.error as e:
        print("foliOS: no QEMU GDB stub on port %d (%s): start ./run-qemu.sh --gdb"
              % (port, e))
