/*
 * vsnprintf: the printf subset the kernel uses.
 * Conversions: %d %i %u %o %x %X %p %s %c %%; flags - 0 # space; width and
 * precision (also *); length modifiers l ll z.  %p prints 0x + 16 hex digits.
 */
#include "linux/printk.h"
#include "linux/string.h"

struct outbuf {
	char *buf;
	size_t size, len;
};

static void put(struct outbuf *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

struct spec {
	bool left, zero, alt, space;
	int width, prec;
};

static void put_padded(struct outbuf *o, const char *s, size_t n, const struct spec *sp)
{
	int pad = sp->width > (int)n ? sp->width - (int)n : 0;

	if (!sp->left)
		while (pad-- > 0)
			put(o, ' ');
	while (n--)
		put(o, *s++);
	if (sp->left)
		while (pad-- > 0)
			put(o, ' ');
}

static void put_number(struct outbuf *o, unsigned long long v, bool neg, unsigned int base,
		       bool upper, struct spec *sp)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24], out[48];
	int n = 0, len = 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	while (n < sp->prec)
		tmp[n++] = '0';
	if (neg)
		out[len++] = '-';
	else if (sp->space)
		out[len++] = ' ';
	if (sp->alt && base == 16) {
		out[len++] = '0';
		out[len++] = 'x';
	}
	if (sp->zero && !sp->left)
		while (len + n < sp->width)
			tmp[n++] = '0';
	while (n)
		out[len++] = tmp[--n];
	sp->zero = false;
	put_padded(o, out, len, sp);
}

static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	*sp = (struct spec){ .prec = -1 };
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else if (*f == '#')
			sp->alt = true;
		else if (*f == ' ')
			sp->space = true;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		sp->prec = 0;
		if (*++f == '*') {
			sp->prec = va_arg(*ap, int);
			f++;
		}
		while (*f >= '0' && *f <= '9')
			sp->prec = sp->prec * 10 + (*f++ - '0');
	}
	return f;
}

/* Print one integer or pointer conversion (c is its letter). */
static void convert_number(struct outbuf *o, char c, struct spec *sp, int lng, va_list *ap)
{
	unsigned long long v;

	if (c == 'p') {
		sp->alt = true;
		sp->prec = 16;
		put_number(o, (unsigned long)va_arg(*ap, void *), false, 16, false, sp);
	} else if (c == 'd' || c == 'i') {
		long long sv = lng ? va_arg(*ap, long long) : va_arg(*ap, int);

		put_number(o, sv < 0 ? -(unsigned long long)sv : (unsigned long long)sv,
			   sv < 0, 10, false, sp);
	} else {
		v = lng ? va_arg(*ap, unsigned long long) : va_arg(*ap, unsigned int);
		put_number(o, v, false, c == 'u' ? 10 : c == 'o' ? 8 : 16, c == 'X', sp);
	}
}

/*
 * Print one conversion: *f is its letter, sp and lng what came before it.
 * Returns the last character consumed (f, or f - 1 at a '%' that ends fmt).
 */
static const char *convert(struct outbuf *o, const char *f, struct spec *sp, int lng, va_list *ap)
{
	switch (*f) {
	case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'p':
		convert_number(o, *f, sp, lng, ap);
		return f;
	case 's': {
		const char *s = va_arg(*ap, const char *);

		if (!s)
			s = "(null)";
		put_padded(o, s, sp->prec >= 0 ? strnlen(s, sp->prec) : strlen(s), sp);
		return f;
	}
	case 'c': {
		char c = va_arg(*ap, int);

		put_padded(o, &c, 1, sp);
		return f;
	}
	case '%':
		put(o, '%');
		return f;
	}
	put(o, '%');
	if (!*f)
		return f - 1;
	put(o, *f);
	return f;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct outbuf o = { buf, size, 0 };
	va_list aq;

	va_copy(aq, ap);
	for (const char *f = fmt; *f; f++) {
		struct spec sp;
		int lng = 0;

		if (*f != '%') {
			put(&o, *f);
			continue;
		}
		f = parse_spec(f + 1, &sp, &aq);
		while (*f == 'l' || *f == 'z')
			lng++, f++;
		f = convert(&o, f, &sp, lng, &aq);
	}
	va_end(aq);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
