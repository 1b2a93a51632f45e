# foliOS GDB setup: loaded when `gdb` starts in the repository root (after
# `./run-qemu.sh --gdb` in another terminal).  It loads the kernel's symbols,
# connects to QEMU's GDB stub and adds the helpers of scripts/gdb/.
# `help folios` lists them.
set confirm off
set pagination off
set print pretty on
python
import os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "scripts", "gdb"))
import folios
folios.connect()
end
