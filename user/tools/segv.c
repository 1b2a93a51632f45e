/*
 * Touches memory it may not: the kernel must kill it with SIGSEGV (139).
 *   segv       write after munmap
 *   segv r     write to a PROT_READ mapping
 *   segv p     write to a page mprotect()ed read-only
 */
#include <stdio.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char mode = argc > 1 ? argv[1][0] : 'w';

	p[0] = 1;
	if (mode == 'r') {
		p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		p[0] = 1;
	} else if (mode == 'p') {
		mprotect(p, 4096, PROT_READ);
		p[0] = 2;
	} else {
		munmap(p, 4096);
		p[0] = 2;
	}
	printf("segv: still alive\n");
	return 0;
}
