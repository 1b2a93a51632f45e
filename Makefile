SHELL := /bin/bash
# foliOS build.  `make` builds the default kernel (per-page mapcounts kept);
# `make NO_PAGE_MAPCOUNT=1` the CONFIG_NO_PAGE_MAPCOUNT one; `make
# MAPCOUNT_PAGES=1` the third, whose large mapcount counts mapped pages
# (the 2026 RFC "mm/rmap: support arbitrary folio mappings").  Each variant
# has its own build directory, so both can exist side by side.
#
#   make / make all      kernel ELF + bootable GRUB ISO of one variant
#   make run             boot it in QEMU (serial console on this terminal)
#   make test            host tests, ktest on both variants, GDB test
#   make host-tests      only the host tests (mm/ built for the host)
#   make bench           bench_folio on both variants and Linux: table + plot (BENCH_ARGS)
#   make bench-host      fork/munmap and the rmap calls natively, both modes (BENCH_HOST_ARGS)
#   make mapcount-report the three schemes side by side: docs/mapcount-report.md
#   make fuzz-rmap       libFuzzer on the rmap model (FUZZ_SECONDS, default 30)
#   make difftest        generated system-call programs, foliOS against Linux (SEEDS, STEPS)
#   make difftest-record Linux's records of the fixed seeds, for make test (needs the peer)
#   make RMAP_TRACE=0    a kernel without the rmap hook: no trace, no shadow (build/*-notrace/)
#   make LOCKDEP=0       a kernel without the lock validator (build/*-nolockdep/; make bench)
#   make clean

NO_PAGE_MAPCOUNT ?= 0
MAPCOUNT_PAGES ?= 0
RMAP_TRACE ?= 1
LOCKDEP ?= 1
ifeq ($(MAPCOUNT_PAGES),1)
# no per-page mapcounts either: the RFC's kernel behaves like NO_PAGE_MAPCOUNT
override NO_PAGE_MAPCOUNT := 1
VARIANT := mapcount-pages
else ifeq ($(NO_PAGE_MAPCOUNT),1)
VARIANT := no-page-mapcount
else
VARIANT := page-mapcount
endif
B := build/$(VARIANT)$(if $(filter 0,$(RMAP_TRACE)),-notrace)$(if $(filter 0,$(LOCKDEP)),-nolockdep)

DEPS_OK := $(shell scripts/install-deps.sh >&2 && echo ok)
ifneq ($(DEPS_OK),ok)
$(error missing packages: see the message above)
endif

CC      := gcc
LD      := ld --no-warn-rwx-segments -z noexecstack
NASM    := nasm
PYTHON  := python3
NASM_DEBUG := -g -F dwarf

CFLAGS_COMMON := -std=gnu11 -g -Wall -Wextra -Wno-unused-parameter \
	-Wno-missing-field-initializers -I. -iquote include -DCONFIG_NO_PAGE_MAPCOUNT=$(NO_PAGE_MAPCOUNT) \
	-DCONFIG_MAPCOUNT_PAGES=$(MAPCOUNT_PAGES) \
	-DCONFIG_RMAP_TRACE=$(RMAP_TRACE) -MMD -MP
KCFLAGS := $(CFLAGS_COMMON) -O2 -Iarch/x86_64/include -ffreestanding -fno-pic -fno-pie \
	-mcmodel=kernel -mno-red-zone -mno-mmx -mno-sse -mno-sse2 -mno-avx -mno-3dnow \
	-mno-80387 -mno-fp-ret-in-387 \
	-fno-stack-protector -fno-omit-frame-pointer -fno-asynchronous-unwind-tables \
	-fcf-protection=none -Werror -DCONFIG_LOCKDEP=$(LOCKDEP) -DCONFIG_SLUB_DEBUG=$(LOCKDEP)

KSRCS := $(wildcard kernel/*.c kernel/sched/*.c kernel/locking/*.c kernel/rcu/*.c mm/*.c fs/*.c fs/proc/*.c lib/*.c \
	arch/x86_64/*.c arch/x86_64/lib/*.c block/*.c drivers/*/*.c)
ASRCS := boot/boot.asm boot/trampoline.asm arch/x86_64/entry.asm arch/x86_64/switch.asm \
	 arch/x86_64/vdso/vdso-image.asm
KOBJS := $(KSRCS:%.c=$(B)/%.o) $(ASRCS:%.asm=$(B)/%.o)

.PHONY: all run test host-tests bench bench-host mapcount-report clean user fuzz-rmap tsan-host difftest difftest-record
all: $(B)/folios.iso user

# User programs: ordinary C, musl-gcc -static, the same binaries Linux runs.
# One set for both kernels; the initrd is built per run by run-qemu.sh.
# user/ holds init and the test runner, user/tests/ the guest tests,
# user/tools/ foliOS's own tools, user/bench/ the benchmarks; the headers
# they share are in user/.
USER_DIRS := user user/tests user/tools user/bench
USER_PROGS := $(foreach d,$(USER_DIRS),$(patsubst $(d)/%.c,build/user/bin/%,$(wildcard $(d)/*.c)))
user: $(USER_PROGS) build/user/bin/hello-pie build/user/bin/hello-dyn build/user/bin/bench_syscall_dyn \
	build/user/lib/ld-musl-x86_64.so.1

# hello again, as a static-PIE executable (ET_DYN, no interpreter).  Debian's
# musl-gcc does not pick musl's self-relocating rcrt1.o for -static-pie, so
# the link names musl's start files itself.
MUSL_LIB = $(dir $(shell sed -n 's/.*-specs "\(.*\)".*/\1/p' $$(command -v musl-gcc)))
build/user/bin/hello-pie: user/tools/hello.c Makefile
	@mkdir -p $(dir $@)
	musl-gcc -fPIE -O2 -c -o $@.o $<
	gcc -nostdlib -static-pie -Wl,--no-dynamic-linker -o $@ $(MUSL_LIB)rcrt1.o \
		$(MUSL_LIB)crti.o $@.o $(MUSL_LIB)libc.a $(MUSL_LIB)crtn.o
	rm -f $@.o

# hello once more, dynamically linked: PT_INTERP names musl's loader, which
# is its libc.so too; the initrd has it at that name (run-qemu.sh: /lib).
build/user/bin/hello-dyn: user/tools/hello.c Makefile
	@mkdir -p $(dir $@)
	musl-gcc -O2 -o $@ $<

# bench_syscall once more, dynamically linked: the cost of a dynamic execve.
build/user/bin/bench_syscall_dyn: user/bench/bench_syscall.c Makefile
	@mkdir -p $(dir $@)
	musl-gcc -O2 -Wall -Wextra -o $@ $<

build/user/lib/ld-musl-x86_64.so.1: Makefile
	@mkdir -p $(dir $@)
	cp $(MUSL_LIB)libc.so $@

# One rule per folder of USER_DIRS; a program includes the shared headers as "tap.h".
USER_CFLAGS := -static -O2 -Wall -Wextra -iquote user
define user_prog_rule
build/user/bin/%: $(1)/%.c Makefile $$(wildcard user/*.h)
	@mkdir -p $$(dir $$@)
	musl-gcc $$(USER_CFLAGS) -o $$@ $$<
endef
$(foreach d,$(USER_DIRS),$(eval $(call user_prog_rule,$(d))))

# difftest is one program in several files (user/difftest/*.c are #included).
build/user/bin/difftest: $(wildcard user/difftest/*)

$(B)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -c $< -o $@

# boot.asm gets no DWARF: its mix of 32-bit code at 1 MiB and 64-bit code in
# the higher half confuses GDB's line tables ("pc ... not in symtab").  The
# same for the APs' trampoline (16-, 32- and 64-bit code, run from a copy).
$(B)/boot/boot.o $(B)/boot/trampoline.o: NASM_DEBUG :=
$(B)/%.o: %.asm Makefile
	@mkdir -p $(dir $@)
	$(NASM) -f elf64 $(NASM_DEBUG) $(NASM_INCLUDE) $< -o $@

# The vDSO (arch/x86_64/vdso/): user code, position-independent, linked
# as linux-vdso.so.1 with no relocations (it runs wherever it is mapped,
# unrelocated), then stripped and carried in the kernel by vdso-image.asm.
# vdso.so.dbg keeps the symbols, for GDB's add-symbol-file.
VDSO_DIR := $(B)/arch/x86_64/vdso
VDSO_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -I. -iquote include \
	-D__VDSO__ -ffreestanding -fPIC -fno-stack-protector -fcf-protection=none \
	-fasynchronous-unwind-tables -nostdlib -shared -Wl,-T,arch/x86_64/vdso/vdso.lds \
	-Wl,--hash-style=both -Wl,-soname=linux-vdso.so.1 -Wl,--no-undefined \
	-Wl,-z,max-page-size=4096 -Wl,--eh-frame-hdr -Wl,--build-id=sha1
$(VDSO_DIR)/vdso.so.dbg: $(wildcard arch/x86_64/vdso/*.c arch/x86_64/vdso/*.h) \
		arch/x86_64/vdso/vdso.lds include/vdso/datapage.h include/linux/types.h \
		include/linux/compiler.h include/uapi/linux/time.h include/uapi/asm/unistd_64.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(VDSO_CFLAGS) -o $@ $(filter %.c,$^)
	@readelf -r $@ | grep -q 'There are no relocations' \
		|| { echo "vdso: relocations in $@ (it must run unrelocated)" >&2; exit 1; }
$(VDSO_DIR)/vdso.so: $(VDSO_DIR)/vdso.so.dbg
	objcopy -S $< $@
$(VDSO_DIR)/vdso-image.o: $(VDSO_DIR)/vdso.so
$(VDSO_DIR)/vdso-image.o: NASM_INCLUDE := -i $(VDSO_DIR)/

# Two links: the first has an empty symbol table; its `nm` output becomes the
# table of the second.  .ksyms sits last in the image, so no code moves.
$(B)/folios.elf: $(KOBJS) linker.ld scripts/gen-ksyms.py
	$(PYTHON) scripts/gen-ksyms.py > $(B)/ksyms0.S
	$(CC) -c $(B)/ksyms0.S -o $(B)/ksyms0.o
	$(LD) -n -T linker.ld -o $(B)/folios.pass1.elf $(KOBJS) $(B)/ksyms0.o
	nm -n $(B)/folios.pass1.elf > $(B)/folios.pass1.nm
	$(PYTHON) scripts/gen-ksyms.py $(B)/folios.pass1.nm > $(B)/ksyms.S
	$(CC) -c $(B)/ksyms.S -o $(B)/ksyms.o
	$(LD) -n -T linker.ld -o $@ $(KOBJS) $(B)/ksyms.o
	nm -n $@ | grep -i ' t ' | cmp -s - <(grep -i ' t ' $(B)/folios.pass1.nm) \
		|| { echo "ksyms: text moved between links" >&2; exit 1; }

$(B)/folios.iso: $(B)/folios.elf boot/grub.cfg
	@mkdir -p $(B)/iso/boot/grub
	cp $(B)/folios.elf $(B)/iso/boot/folios.elf
	cp boot/grub.cfg $(B)/iso/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(B)/iso 2>$(B)/grub-mkrescue.log \
		|| { cat $(B)/grub-mkrescue.log >&2; exit 1; }

run: all
	-./run-qemu.sh $(if $(filter 1,$(MAPCOUNT_PAGES)),--mapcount-pages,$(if $(filter 1,$(NO_PAGE_MAPCOUNT)),--no-page-mapcount))

# --- tests -----------------------------------------------------------------

HOST_CFLAGS := $(CFLAGS_COMMON) -DCONFIG_SLUB_DEBUG=1 -O1 -Itests/host/include -fsanitize=address,undefined \
	-fno-omit-frame-pointer -fno-sanitize-recover=undefined
HOST_MM := $(filter-out mm/ktest_%.c mm/syscalls.c mm/mincore.c mm/msync.c mm/swapfile.c mm/swapfile_unuse.c mm/page_io.c mm/gup.c mm/gup_test.c mm/mempolicy.c mm/shmem.c \
	mm/shmem_fs.c mm/shmem_file.c mm/shmem_swap.c mm/memfd.c mm/vmscan_kswapd.c mm/page_alloc_slowpath.c mm/oom_kill.c,$(wildcard mm/*.c)) lib/ida.c lib/xarray.c lib/chacha.c kernel/locking/rwsem.c
HOST_LIB := $(HOST_MM) tests/host/hostenv.c tests/host/hostswap.c tests/host/softmmu.c arch/x86_64/return_hook.c
HOST_TESTS := $(patsubst tests/host/test_%.c,$(B)/host/test_%,$(wildcard tests/host/test_*.c))
# The host tests' mm/ objects, compiled once per variant and linked into each.
HOST_OBJS := $(HOST_LIB:%.c=$(B)/host/obj/%.o)

$(B)/host/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -c $< -o $@

$(B)/host/test_%: tests/host/test_%.c $(HOST_OBJS) $(wildcard tests/host/*.h tests/host/include/asm/*.h mm/*.h include/*/*.h include/*/*/*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $< $(HOST_OBJS) -lcmocka -pthread -o $@

# The concurrent host tests under ThreadSanitizer (clang), both variants:
# make tsan-host (not part of make test: a few seconds, and clang only).
TSAN_TESTS := $(B)/host/tsan_concurrent_cow $(B)/host/tsan_concurrent_filemap $(B)/host/tsan_xarray
$(B)/host/tsan_%: tests/host/test_%.c $(HOST_LIB) $(wildcard tests/host/*.h tests/host/include/asm/*.h mm/*.h include/*/*.h include/*/*/*.h) Makefile
	@mkdir -p $(dir $@)
	clang $(CFLAGS_COMMON) -DCONFIG_SLUB_DEBUG=1 -O1 -g -Itests/host/include -fsanitize=thread $< $(HOST_LIB) -lcmocka -pthread -o $@

tsan-host: $(TSAN_TESTS)
	TSAN_OPTIONS="suppressions=tests/host/tsan.supp halt_on_error=1" tests/run-host-tests.sh $(TSAN_TESTS)

# The host benchmarks: no sanitizers, optimized (make bench-host, not make test).
$(B)/host/bench_%: tests/host/bench_%.c $(HOST_LIB) $(wildcard tests/host/*.h mm/*.h include/*/*.h include/*/*/*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -DCONFIG_SLUB_DEBUG=0 -O2 -Itests/host/include $< $(HOST_LIB) -o $@

# The libFuzzer target (clang): the rmap model driven by the fuzzer's bytes.
FUZZ_SECONDS ?= 30
$(B)/host/fuzz_rmap: tests/host/fuzz_rmap.c tests/host/test_rmap_model.c $(HOST_LIB) $(wildcard tests/host/*.h mm/*.h include/*/*.h include/*/*/*.h) Makefile
	@mkdir -p $(dir $@)
	clang $(CFLAGS_COMMON) -DCONFIG_SLUB_DEBUG=1 -O1 -g -Itests/host/include -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -Wno-unused-function $< $(HOST_LIB) -lcmocka -o $@

fuzz-rmap: $(B)/host/fuzz_rmap
	@mkdir -p $(B)/fuzz-corpus
	$(B)/host/fuzz_rmap -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		$(B)/fuzz-corpus tests/host/corpus/rmap 2>&1 | tail -n 12

bench:
	scripts/bench.sh $(BENCH_ARGS)

bench-host:
	scripts/bench-host.sh $(BENCH_HOST_ARGS)

mapcount-report:
	scripts/mapcount-report.sh

# difftest (docs/difftest.md): with the Linux peer, SEEDS against live Linux;
# without it, the fixed seeds against the committed Linux records.
SEEDS ?= 1-100
STEPS ?= 60
difftest:
	@if [ -x ../shared/peer/linux-peer.sh ]; then scripts/difftest.sh hunt $(SEEDS) --steps $(STEPS); \
	else echo "# no ../shared/peer: the fixed seeds against the committed records"; scripts/difftest.sh check; fi

difftest-record:
	scripts/difftest.sh record

host-tests: $(HOST_TESTS)
	tests/run-host-tests.sh $(HOST_TESTS)

test:
	tests/run-all.sh

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
