/*
 * Guest test (TAP): exec maps a program from the page cache, as Linux's
 * ELF loader does.  The test execs itself in a child that stays running
 * and compares, through /proc/self/pagemap:
 *   - the text page of main(): the same PFN in both processes, and in a
 *     MAP_PRIVATE mapping of the file (the page-cache folio itself);
 *   - a page-sized, page-aligned .data array nobody writes: shared too,
 *     until the parent writes it — then its copy has a PFN of its own and
 *     is anon (PM_FILE clear), while the child still reads the file's data;
 *   - the bss: zero, including the rest of the last file page of the data
 *     segment (Linux's padzero), where the file itself holds other bytes;
 *   - /proc/meminfo's Cached does not grow by the program's size per exec.
 * Also: read() gives the bytes the text mapping shows; a private writable
 * mapping of the file copies on write and leaves the file intact; a
 * MAP_SHARED writable mapping of a read-only fd is EACCES.  Static non-PIE
 * build (load bias 0).  Runs unchanged on Linux as root
 * (../shared/peer/linux-peer.sh --mounts: PFNs are shown to root).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include "thp_util.h"

#define PM_FILE         (1ULL << 61)
#define EXECS           5

/* One page of .data that no code writes until the parent does. */
static volatile int pristine[PAGE / sizeof(int)] __attribute__((aligned(PAGE))) = { 1 };
static volatile char bss_probe[64];

struct report {
	unsigned long text_pfn, data_pfn;
	int data_value;
};

static const char *self;

/* The PT_LOAD segment (from our own program headers) holding addr, or NULL. */
static const Elf64_Phdr *segment_of(unsigned long addr)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)getauxval(AT_PHDR);
	unsigned long n = getauxval(AT_PHNUM);

	for (unsigned long i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && addr >= ph[i].p_vaddr &&
		    addr < ph[i].p_vaddr + ph[i].p_memsz)
			return &ph[i];
	return NULL;
}

static void *page_of(const volatile void *p)
{
	return (void *)((unsigned long)p & ~(PAGE - 1));
}

/* The exec'd child: report what it maps, then wait for the parent to close the pipe. */
static int child_main(int wfd, int rfd)
{
	struct report r;
	char c;

	r.data_value = pristine[0];
	r.text_pfn = pfn_of(page_of((void *)child_main));
	r.data_pfn = pfn_of(page_of(pristine));
	write(wfd, &r, sizeof(r));
	read(rfd, &c, 1);
	return 0;
}

/* Start the exec'd child and read its report; its pid, or -1. */
static pid_t start_child(struct report *r, int *hold)
{
	int up[2], down[2];
	char a[16], b[16];
	pid_t pid;

	xpipe(up, 0);
	xpipe(down, 0);
	pid = fork();
	if (pid == 0) {
		close(up[0]);
		close(down[1]);
		snprintf(a, sizeof(a), "%d", up[1]);
		snprintf(b, sizeof(b), "%d", down[0]);
		execl(self, self, "child", a, b, (char *)NULL);
		_exit(127);
	}
	close(up[1]);
	close(down[0]);
	*hold = down[1];
	if (read(up[0], r, sizeof(*r)) != sizeof(*r))
		pid = -1;
	close(up[0]);
	return pid;
}

static void test_shared_text_and_data(void)
{
	struct report r;
	int hold;
	unsigned long text_pfn, data_pfn;
	pid_t pid;

	(void)pristine[0];
	text_pfn = pfn_of(page_of((void *)child_main));
	data_pfn = pfn_of(page_of(pristine));
	pid = start_child(&r, &hold);
	ok(pid > 0 && text_pfn && r.text_pfn == text_pfn,
	   "two running processes of the program map its text at one PFN (%#lx, %#lx)",
	   text_pfn, r.text_pfn);
	ok(data_pfn && r.data_pfn == data_pfn && (pagemap_entry(page_of(pristine)) & PM_FILE),
	   "an unwritten data page: the page-cache page in both");
	pristine[0] = 2;
	ok(pfn_of(page_of(pristine)) != data_pfn && !(pagemap_entry(page_of(pristine)) & PM_FILE) &&
	   r.data_value == 1, "a write to data copies the page (anon, new PFN); the child saw 1");
	close(hold);
	ok(wait_exit(pid) == 0, "the exec'd child exited 0");
}

/* bss zero; the rest of the data segment's last file page zeroed where the file is not. */
static void test_bss(void)
{
	const Elf64_Phdr *ph = segment_of((unsigned long)bss_probe);
	unsigned long file_end, off;
	char file[sizeof(bss_probe)];
	int zero = 1, fd, differs = 0;

	for (size_t i = 0; i < sizeof(bss_probe); i++)
		zero &= !bss_probe[i];
	ok(ph && zero, "bss is zero");
	if (!ph) {
		skip("no segment holds the bss");
		return;
	}
	file_end = ph->p_vaddr + ph->p_filesz;
	off = ph->p_offset + ((unsigned long)bss_probe - ph->p_vaddr);
	fd = open(self, O_RDONLY);
	if (pread(fd, file, sizeof(file), off) == (ssize_t)sizeof(file))
		for (size_t i = 0; i < sizeof(file); i++)
			differs |= file[i] != 0;
	close(fd);
	if ((unsigned long)page_of(bss_probe) != (unsigned long)page_of((void *)file_end) || !differs)
		skip("the bss probe is not in the last file page, or the file has zeros there");
	else
		ok(zero, "padzero: the bss in the last file page is zero, the file's bytes there are not");
}

/* read() and mmap of the program's file see the page cache's text. */
static void test_file_mappings(void)
{
	const Elf64_Phdr *ph = segment_of((unsigned long)child_main);
	char *text = page_of((void *)child_main), buf[PAGE], *p;
	unsigned long off = ph->p_offset + ((unsigned long)text - ph->p_vaddr);
	int fd = open(self, O_RDONLY);

	ok(pread(fd, buf, PAGE, off) == PAGE && !memcmp(buf, text, PAGE),
	   "read() of the program gives the text's bytes");
	p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, off);
	if (p != MAP_FAILED)
		(void)*(volatile char *)p;
	ok(p != MAP_FAILED && pfn_of(p) == pfn_of(text), "a MAP_PRIVATE read mapping: the text's PFN");
	munmap(p, PAGE);
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, off);
	if (p != MAP_FAILED)
		p[0] ^= 0xff;
	ok(p != MAP_FAILED && pfn_of(p) != pfn_of(text) && p[0] == (char)(buf[0] ^ 0xff) &&
	   pread(fd, buf, 1, off) == 1 && buf[0] == text[0],
	   "a private writable mapping copies on write; file and text unchanged");
	munmap(p, PAGE);
	errno = 0;
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	ok(p == MAP_FAILED && errno == EACCES, "MAP_SHARED writable of an O_RDONLY fd: EACCES");
	close(fd);
}

/* Each exec maps the cached file: Cached grows by less than half the program per exec. */
static void test_cached(void)
{
	struct stat st;
	long before = meminfo_kb("Cached"), after;

	stat(self, &st);
	for (int i = 0; i < EXECS; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			execl(self, self, "exit", (char *)NULL);
			_exit(127);
		}
		wait_exit(pid);
	}
	after = meminfo_kb("Cached");
	ok(before > 0 && after - before < (long)(st.st_size / 1024) * EXECS / 2,
	   "%d execs: Cached %ld -> %ld kB (program %ld kB)", EXECS, before, after,
	   (long)st.st_size / 1024);
}

int main(int argc, char **argv)
{
	self = argv[0];
	if (argc == 4 && !strcmp(argv[1], "child"))
		return child_main(atoi(argv[2]), atoi(argv[3]));
	if (argc == 2 && !strcmp(argv[1], "exit"))
		return 0;
	mount_proc_sys();
	test_shared_text_and_data();
	test_bss();
	test_file_mappings();
	test_cached();
	return tap_done();
}
