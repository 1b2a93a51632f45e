"""The buddy allocator's free lists."""
import gdb

from folios import utils


class BuddyInfo(gdb.Command):
    """Free blocks per order, counted on the lists and compared with nr_free.
Usage: buddyinfo"""

    def __init__(self):
        super().__init__("buddyinfo", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        zone = gdb.parse_and_eval("zone")
        area = zone["free_area"]
        lru_off = int(gdb.parse_and_eval("(unsigned long)&((struct page *)0)->lru"))
        total = 0
        print("order  nr_free  on list  pages   first pfn")
        for order in range(area.type.range()[1] + 1):
            head = area[order]["free_list"].address
            node = int(head["next"])
            count, first = 0, None
            while node != int(head) and count < 1000000:
                if first is None:
                    first = utils.page_to_pfn(node - lru_off)
                count += 1
                node = utils.read_u64(node)
            nr = int(area[order]["nr_free"])
            total += nr << order
            print("%5d  %7d  %7d  %6d  %s%s" % (
                order, nr, count, nr << order, "-" if first is None else "%#x" % first,
                "" if nr == count else "   <-- MISMATCH"))
        print("free pages: %d (zone says %d), managed %d" % (
            total, int(zone["free_pages"]), int(zone["managed_pages"])))


BuddyInfo()
