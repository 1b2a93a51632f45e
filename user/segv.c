/* Touches memory it may not: the kernel must kill it with SIGSEGV (status 139). */
#include <stdio.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	p[0] = 1;
	munmap(p, 4096);
	if (argc > 1 && argv[1][0] == 'r') {
		p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		p[0] = 1;               /* write to PROT_READ */
	} else {
		p[0] = 2;               /* use after munmap */
	}
	printf("segv: still alive\n");
	return 0;
}
