"""Page tables and page frames: pgwalk, virt2phys, pfn, page."""
import gdb

from folios import utils

LEVELS = [("PML4", 39, "PGD"), ("PDPT", 30, "PUD"), ("PD", 21, "PMD"), ("PT", 12, "PTE")]
BITS = [(0, "P"), (1, "W"), (2, "U"), (5, "A"), (6, "D"), (7, "PS"), (8, "G"), (9, "SPECIAL")]


def protnone(entry):
    """A PROT_NONE user leaf: P clear, bit 8 (G) set (asm/pgtable.h)."""
    return entry & 0x101 == 0x100


SWP_TYPES = {28: "read", 29: "read-exclusive", 30: "write"}   # include/linux/swapops.h
SWP_PFN_BITS = 40


def migration(entry):
    """A swap-format PTE (P and PROTNONE clear, not 0): a swap or migration
    entry (asm/pgtable.h, include/linux/swapops.h): type in bits 59-63, the
    offset inverted in bits 9-58, soft-dirty in bit 1, exclusive in bit 3."""
    return entry and not entry & 0x101


def decode_migration(entry):
    """'swap type 0 offset 0x12 exclusive soft-dirty', or
    'migration write pfn 0x1234 young dirty soft-dirty'."""
    swp_type = entry >> 59
    mask = (1 << 64) - 1
    offset = ((~entry & mask) << 5 & mask) >> 14
    if swp_type < 28:
        words = ["swap", "type %d" % swp_type, "offset %#x" % offset]
        if entry >> 3 & 1:
            words.append("exclusive")
        if entry >> 1 & 1:
            words.append("soft-dirty")
        return " ".join(words)
    words = ["migration", SWP_TYPES.get(swp_type, "type %d?" % swp_type),
             "pfn %#x" % (offset & ((1 << SWP_PFN_BITS) - 1))]
    if offset >> SWP_PFN_BITS & 1:
        words.append("young")
    if offset >> (SWP_PFN_BITS + 1) & 1:
        words.append("dirty")
    if entry >> 1 & 1:
        words.append("soft-dirty")
    return " ".join(words)


def decode(entry):
    """x86 entry bits as words, e.g. 'P W U A D NX'."""
    words = [name for bit, name in BITS if entry & (1 << bit)]
    if protnone(entry):
        words[words.index("G")] = "PROTNONE"
    if not entry & 2:
        words.insert(1, "RO")
    words.append("NX" if entry >> 63 else "X")
    return " ".join(words)


def walk(vaddr, root):
    """Yield (level name, table pa, index, entry, kind) down to the leaf.
    kind: 'table', 'leaf' (with size), or 'none'."""
    table = root
    for depth, (name, shift, lname) in enumerate(LEVELS):
        index = (vaddr >> shift) & 511
        entry = utils.phys_read_u64(table + index * 8)
        if depth == 3 and migration(entry):
            yield name, lname, table, index, entry, "migration", 0
            return
        if not entry & 1 and not (depth >= 2 and protnone(entry)):
            yield name, lname, table, index, entry, "none", 0
            return
        if depth == 3 or (depth in (1, 2) and entry & 0x80):
            yield name, lname, table, index, entry, "leaf", 1 << shift
            return
        yield name, lname, table, index, entry, "table", 0
        table = entry & utils.PFN_MASK


def translate(vaddr, root=None):
    """Physical address of vaddr, or None if not mapped."""
    for _, _, _, _, entry, kind, size in walk(vaddr, root or utils.cr3()):
        if kind == "leaf":
            return (entry & utils.PFN_MASK & ~(size - 1)) + (vaddr & (size - 1))
    return None


class PgWalk(gdb.Command):
    """Walk the 4-level page tables for a virtual address.
Usage: pgwalk VADDR [PGD]
       pgwalk -p PID VADDR   (the page tables of that task's mm)
PGD is the physical address of the root table (default: CR3), or a
kernel pointer to it (e.g. init_pgd).  Prints every level's index and
entry with its bits decoded (P present, W/RO, U user, A accessed, D dirty,
PS leaf at PUD/PMD level, G global, PROTNONE a PROT_NONE leaf the
CPU sees as not present, SPECIAL a PTE of the zero page, NX/X) and the
physical address found.  A migration entry (a PTE a split or migration
took away for a moment) shows its type, the page it names and the bits
it keeps."""

    def __init__(self):
        super().__init__("pgwalk", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        args = gdb.string_to_argv(arg)
        if not args:
            raise gdb.GdbError("usage: pgwalk VADDR [PGD]")
        root = utils.cr3()
        if args[0] == "-p" and len(args) == 3:
            from folios import tasks
            root = tasks.task_root(utils.value(args[1]))
            args = args[2:]
        vaddr = utils.value(args[0]) & 0xffffffffffffffff
        if len(args) > 1:
            root = utils.value(args[1])
            if root >= utils.PAGE_OFFSET:
                root -= utils.PAGE_OFFSET
        print("pgwalk %#x: PML4[%d] PDPT[%d] PD[%d] PT[%d] offset %#x, root %#x" % (
            vaddr, (vaddr >> 39) & 511, (vaddr >> 30) & 511, (vaddr >> 21) & 511,
            (vaddr >> 12) & 511, vaddr & 0xfff, root))
        for name, lname, table, index, entry, kind, size in walk(vaddr, root):
            where = "%-4s (%s) @ %#010x [%3d] = %#018x" % (name, lname, table, index, entry)
            if kind == "none":
                print("%s  not present" % where)
                print("=> not mapped (no %s entry)" % lname)
                return
            if kind == "migration":
                print("%s  %s" % (where, decode_migration(entry)))
                if entry >> 59 < 28:
                    print("=> swapped out: a fault reads it back (do_swap_page)")
                else:
                    print("=> unmapped for a split or migration: a fault waits for the folio lock")
                return
            print("%s  %s" % (where, decode(entry)))
            if kind == "leaf":
                base = entry & utils.PFN_MASK & ~(size - 1)
                pa = base + (vaddr & (size - 1))
                label = {1 << 12: "4 KiB", 1 << 21: "2 MiB", 1 << 30: "1 GiB"}[size]
                print("=> %s page at %#x: phys %#x (pfn %#x)" % (label, base, pa, pa >> 12))


class Virt2Phys(gdb.Command):
    """Translate a virtual address through the current page tables.
Usage: virt2phys VADDR"""

    def __init__(self):
        super().__init__("virt2phys", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        vaddr = utils.value(arg) & 0xffffffffffffffff
        pa = translate(vaddr)
        if pa is None:
            print("%#x: not mapped" % vaddr)
        else:
            print("%#x -> phys %#x (pfn %#x), struct page at %#x" % (
                vaddr, pa, pa >> 12, utils.pfn_to_page(pa >> 12)))


def show_frame(pfn):
    page = utils.pfn_to_page(pfn)
    p = utils.page_struct(page)
    flags = int(p["flags"])
    print("pfn %#x: phys %#x, direct map %#x, struct page at %#x" % (
        pfn, pfn << 12, utils.PAGE_OFFSET + (pfn << 12), page))
    print("  flags %#x (%s) refcount %d mapcount %d private %#x" % (
        flags, utils.flag_names(flags), int(p["_refcount"]["counter"]),
        int(p["_mapcount"]["counter"]) + 1,
        int(p["private"])))
    if int(p["compound_head"]) & 1:
        head = int(p["compound_head"]) & ~1
        print("  tail page of compound page at pfn %#x" % utils.page_to_pfn(head))
    if utils.zero_page_kind(pfn):
        print("  the %s: shared by every mapping, in no rmap" % utils.zero_page_kind(pfn))


class Pfn(gdb.Command):
    """Show a page frame: physical and direct-map addresses, struct page, state.
Usage: pfn PFN"""

    def __init__(self):
        super().__init__("pfn", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        pfn = utils.value(arg)
        if pfn >= utils.value("max_pfn"):
            raise gdb.GdbError("pfn %#x is beyond max_pfn" % pfn)
        show_frame(pfn)


class Page(gdb.Command):
    """Show the page frame of a struct page pointer.
Usage: page ADDR"""

    def __init__(self):
        super().__init__("page", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        show_frame(utils.page_to_pfn(utils.value(arg)))


PgWalk()
Virt2Phys()
Pfn()
Page()
