"""One folio's full rmap state: the `folio` command."""
import gdb

from folios import utils

MM_ID_MASK = (1 << 31) - 1
LOCK_BIT = 31
SHARED_BIT = 63
PF_PARTIALLY_MAPPED = 32
GUP_PIN_COUNTING_BIAS = 1 << 10


def head_of(pfn):
    """pfn of the folio head for any pfn inside a folio."""
    page = utils.page_struct(utils.pfn_to_page(pfn))
    ch = int(page["compound_head"])
    if ch & 1:
        return utils.page_to_pfn(ch - 1)
    return pfn


def page_mapcount_mode():
    """True for the kernel that keeps per-page mapcounts of large folios."""
    return int(gdb.parse_and_eval("(int)config_page_mapcount")) != 0


def mapcount_pages_mode():
    """Was the kernel built with CONFIG_MAPCOUNT_PAGES (the RFC's scheme)?"""
    return int(gdb.parse_and_eval("(int)config_mapcount_pages")) != 0


class Folio(gdb.Command):
    """Show the folio holding a page frame: order, refcount, what it holds
(anon memory: its anon_vma; a page-cache folio: shmem or file, the inode
and the page's offset in the file), mapcounts, the
pins (a large folio's _pincount; a small one's refcount bias), the
two MM ID slots (ID and per-MM mapcount), the "maybe mapped shared" bit, the
mapcount lock bit, partially_mapped, and this page's AnonExclusive and
(with per-page mapcounts) its mapcount.  Counts are logical values.
Usage: folio PFN        (any pfn of the folio)
       folio -p PAGE    (a struct page pointer)"""

    def __init__(self):
        super().__init__("folio", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        args = gdb.string_to_argv(arg)
        if not args:
            raise gdb.GdbError("usage: folio PFN | folio -p PAGE")
        if args[0] == "-p":
            pfn = utils.page_to_pfn(utils.value(" ".join(args[1:])))
        else:
            pfn = utils.value(" ".join(args))
        head = head_of(pfn)
        folio_t = gdb.lookup_type("struct folio")
        f = gdb.Value(utils.pfn_to_page(head)).cast(folio_t.pointer()).dereference()
        page = utils.page_struct(utils.pfn_to_page(pfn))
        large = int(f["flags"]) & (1 << int(gdb.parse_and_eval("PG_head")))
        order = int(f["_flags_1"]) & 0xff if large else 0
        print("pfn: %#x" % pfn)
        if utils.zero_page_kind(pfn):
            print("zero_page: %s (in no rmap: counts stay 0)" % utils.zero_page_kind(pfn))
        print("head_pfn: %#x" % head)
        print("order: %d" % order)
        refcount = int(f["_refcount"]["counter"])
        print("refcount: %d" % refcount)
        mapping = int(f["mapping"])
        kind, ino = utils.folio_mapping(f)
        if kind == "anon":
            print("mapping: %#x (anon_vma %#x)" % (mapping, mapping - 1))
            print("index: %d (linear page index of pfn %#x: %d)"
                  % (int(f["index"]), pfn, int(f["index"]) + pfn - head))
        elif kind == "none":
            print("mapping: 0x0 (none)")
        else:
            print("mapping: %#x (%s: address_space of inode %d)" % (mapping, kind, ino))
            print("index: %d (page offset in the file of pfn %#x: %d)"
                  % (int(f["index"]), pfn, int(f["index"]) + pfn - head))
        ae = int(page["flags"]) & (1 << int(gdb.parse_and_eval("PG_anon_exclusive")))
        if not large:
            print("mapcount: %d" % (int(f["_mapcount"]["counter"]) + 1))
            print("maybe_dma_pinned: %d" % (1 if refcount >= GUP_PIN_COUNTING_BIAS else 0))
            print("anon_exclusive: %d" % (1 if ae else 0))
            return
        ids = int(f["_mm_ids"])
        if mapcount_pages_mode():
            # the RFC's scheme: the large mapcount in page[1]'s _mapcount,
            # the total of mapped pages where _large_mapcount was
            lm = int(f["_mapcount_1"]["counter"]) + 1
            total = int(f["_total_mapped_pages"]["counter"])
            print("large_mapcount: %d" % lm)
            print("total_mapped_pages: %d (PMD mappings: %d)" % (total, (total - lm) // 511))
        else:
            print("large_mapcount: %d" % (int(f["_large_mapcount"]["counter"]) + 1))
            print("entire_mapcount: %d" % (int(f["_entire_mapcount"]["counter"]) + 1))
        print("pincount: %d" % int(f["_pincount"]["counter"]))
        if page_mapcount_mode():
            print("nr_pages_mapped: %#x" % int(f["_nr_pages_mapped"]["counter"]))
            print("page_mapcount: %d" % (int(page["_mapcount"]["counter"]) + 1))
        for i in range(2):
            print("mm_id%d: %d" % (i, (ids >> (32 * i)) & MM_ID_MASK))
            print("mm_id%d_mapcount: %d" % (i, int(f["_mm_id_mapcount"][i]) + 1))
        print("maybe_mapped_shared: %d" % ((ids >> SHARED_BIT) & 1))
        print("mapcount_locked: %d" % ((ids >> LOCK_BIT) & 1))
        print("partially_mapped: %d" % ((int(f["_flags_1"]) >> PF_PARTIALLY_MAPPED) & 1))
        print("anon_exclusive: %d" % (1 if ae else 0))


Folio()
