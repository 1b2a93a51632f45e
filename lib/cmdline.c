/* Kernel command line parsing: whitespace-separated words, "name[=value]". */
#include "linux/cmdline.h"
#include "linux/string.h"

bool cmdline_get(const char *cmdline, const char *name, char *buf, size_t size)
{
	size_t nlen = strlen(name);
	const char *p = cmdline;

	while (*p) {
		const char *word = p;
		size_t wlen = 0;

		while (word[wlen] && word[wlen] != ' ')
			wlen++;
		p = word + wlen;
		while (*p == ' ')
			p++;
		if (wlen < nlen || strncmp(word, name, nlen) ||
		    (wlen > nlen && word[nlen] != '='))
			continue;
		if (buf && size) {
			size_t vlen = wlen > nlen ? wlen - nlen - 1 : 0;

			if (vlen >= size)
				vlen = size - 1;
			memcpy(buf, word + nlen + (wlen > nlen), vlen);
			buf[vlen] = '\0';
		}
		return true;
	}
	return false;
}

bool cmdline_has(const char *cmdline, const char *name)
{
	return cmdline_get(cmdline, name, NULL, 0);
}
