#!/usr/bin/env python3
"""Write the kernel symbol table (kernel/ksyms.c reads it) as assembly.

usage: gen-ksyms.py NM_OUTPUT > ksyms.S
NM_OUTPUT is `nm -n` of the first-pass kernel; only text symbols are kept.
With no argument, writes an empty table (for the first link).
"""
import sys

def main():
    syms = []
    if len(sys.argv) > 1:
        with open(sys.argv[1]) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3 and parts[1] in "Tt" and not parts[2].startswith("."):
                    syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    out = ['\t.section .ksyms, "a"', "\t.balign 8",
           "\t.globl ksyms_nr, ksyms_addrs, ksyms_names",
           f"ksyms_nr:\t.quad {len(syms)}", "ksyms_addrs:"]
    out += [f"\t.quad {addr:#x}" for addr, _ in syms]
    out.append("ksyms_names:")
    out += [f'\t.asciz "{name}"' for _, name in syms]
    out.append("\t.byte 0")
    print("\n".join(out))

main()
