"""Shared helpers: x86-64 constants, memory reads, symbol lookups."""
import os

import gdb

PAGE_SHIFT = 12
PAGE_SIZE = 1 << PAGE_SHIFT
PAGE_OFFSET = 0xffff888000000000      # arch/x86_64/include/asm/page.h
KERNEL_VMA = 0xffffffff80000000
PFN_MASK = 0x000ffffffffff000


def gdb_port():
    """The per-user port run-qemu.sh --gdb uses (FOLIOS_GDB_PORT overrides)."""
    return int(os.environ.get("FOLIOS_GDB_PORT", 1234 + os.getuid() % 20000))


def read_u64(addr):
    """The 64-bit word at a virtual address (read through the CPU's tables)."""
    mem = gdb.selected_inferior().read_memory(addr, 8)
    return int.from_bytes(bytes(mem), "little")


def phys_read_u64(pa):
    """A 64-bit word at a physical address, through the direct map."""
    return read_u64(PAGE_OFFSET + pa)


def current_task():
    """The expression for the task on the CPU GDB looks at: QEMU shows CPU n
    as thread n + 1, and CPU n's per-CPU area is percpu_area[n]."""
    thread = gdb.selected_thread()
    cpu = thread.num - 1 if thread else 0
    return "percpu_area[%d].curr" % cpu


def value(expr):
    """Evaluate an expression (symbol, register, number) to an int."""
    v = gdb.parse_and_eval(expr)
    if v.type.code == gdb.TYPE_CODE_PTR:
        return int(v.cast(gdb.lookup_type("unsigned long")))
    return int(v)


def zero_page_kind(pfn):
    """'zero page' or 'huge zero folio' if pfn is one of the zero pages
    (include/linux/pgtable.h: no rmap, no refcount per mapping), else None."""
    if pfn == value("zero_pfn"):
        return "zero page"
    if value("huge_zero_pfn") == pfn & ~511:
        return "huge zero folio"
    return None


def cr3():
    """CR3 from QEMU's register set."""
    return value("$cr3") & PFN_MASK


def page_type():
    return gdb.lookup_type("struct page")


def mem_map():
    return value("mem_map")


def pfn_to_page(pfn):
    return mem_map() + pfn * page_type().sizeof


def page_to_pfn(page_addr):
    return (page_addr - mem_map()) // page_type().sizeof


def page_struct(page_addr):
    return gdb.Value(page_addr).cast(page_type().pointer()).dereference()


def flag_names(flags):
    """Decode page->flags with the kernel's own table of names."""
    names = []
    nr = int(gdb.parse_and_eval("sizeof(pageflag_names)/sizeof(pageflag_names[0])"))
    for bit in range(nr):
        if flags & (1 << bit) and int(gdb.parse_and_eval("(long)pageflag_names[%d]" % bit)):
            names.append(gdb.parse_and_eval("pageflag_names[%d]" % bit).string())
    return "|".join(names)


def folio_mapping(head_page):
    """What the folio whose head is the struct page head_page holds, as
    /proc/folio names it: (kind, inode number or None).  kind is "anon",
    "shmem" (a page-cache folio with PG_swapbacked), "file" or "none"."""
    mapping = int(head_page["mapping"])
    if mapping & 1:
        return "anon", None
    if not mapping:
        return "none", None
    swapbacked = int(head_page["flags"]) & (1 << int(gdb.parse_and_eval("(int)PG_swapbacked")))
    space = gdb.Value(mapping).cast(gdb.lookup_type("struct address_space").pointer())
    host = int(space["host"])
    ino = int(space["host"]["i_ino"]) if host else 0
    return ("shmem" if swapbacked else "file"), ino


def file_name(file_ptr):
    """The name an open file keeps (fs/d_path.c), with " (deleted)" once
    unlinked, as /proc/<pid>/maps shows it."""
    f = gdb.Value(file_ptr).cast(gdb.lookup_type("struct file").pointer()).dereference()
    name = f["f_pathname"].string() if int(f["f_pathname"]) else ""
    if name and not int(f["f_inode"]["i_nlink"]):
        name += " (deleted)"
    return name
