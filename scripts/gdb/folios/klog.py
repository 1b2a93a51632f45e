"""The kernel log buffer (kernel/printk.c: log_buf, log_next)."""
import gdb

from folios import utils


class KLog(gdb.Command):
    """Print the last lines of the kernel log, even if the console missed them.
Usage: klog [N]    (default 20 lines)"""

    def __init__(self):
        super().__init__("klog", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        lines = int(arg) if arg.strip() else 20
        size = int(gdb.parse_and_eval("sizeof(log_buf)"))
        nxt = utils.value("log_next")
        start = max(0, nxt - size)
        base = utils.value("&log_buf")
        data = bytearray()
        for off in range(start, nxt, 4096):
            chunk = min(4096, nxt - off)
            pos = off % size
            first = min(chunk, size - pos)
            data += bytes(gdb.selected_inferior().read_memory(base + pos, first))
            if chunk > first:
                data += bytes(gdb.selected_inferior().read_memory(base, chunk - first))
        text = data.decode("ascii", "replace").splitlines()
        for line in text[-lines:]:
            print(line)


KLog()
