/*
 * difftest's process-attribute steps: nice values, prctl, capabilities,
 * sessions and process groups, the alternate signal stack.  Each runs in a
 * forked child (what it changes would outlive the step in the runner), which
 * sends its results back through a pipe; the runner prints them, PIDs by
 * whose they are.  Included by user/difftest.c.
 */

#define NR_RES 8

/*
 * fn(res, arg) in a child; its results into res[].  Returns the child's
 * wait status text's need: 0 when the results came back, else says why not.
 */
static int in_child(void (*fn)(long *res, long arg), long arg, long *res)
{
	int p[2], st = 0;
	long pid, n;

	memset(res, 0, NR_RES * sizeof(long));
	if (pipe(p)) {
		say("pipe failed");
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close_extra_fds(p[1], -1);
		fn(res, arg);
		write(p[1], res, NR_RES * sizeof(long));
		_exit(0);
	}
	close(p[1]);
	n = pid > 0 ? read(p[0], res, NR_RES * sizeof(long)) : -1;
	close(p[0]);
	if (pid > 0)
		raw_syscall(SYS_wait4, pid, (long)&st, 0, 0, 0, 0);
	if (n != NR_RES * (long)sizeof(long)) {
		say("child: ");
		if (pid < 0)
			say("fork failed");
		else
			status_text(st);
		return -1;
	}
	return 0;
}

/* ---- nice values ---------------------------------------------------------- */

static const int nices[] = { -21, -20, -5, 0, 5, 19, 20, 100 };
static const struct { int which; const char *name; } prio_which[] = {
	{ PRIO_PROCESS, "PRIO_PROCESS" }, { PRIO_PROCESS, "PRIO_PROCESS" },
	{ PRIO_PGRP, "PRIO_PGRP" }, { PRIO_USER, "PRIO_USER" }, { 3, "3" },
};

/* Drop a capability from the caller's effective set (capset; foliOS has one user). */
static void drop_cap(int cap)
{
	struct { unsigned version; int pid; } hdr = { 0x20080522, 0 };
	struct { unsigned eff, perm, inh; } data[2];

	if (rsys(SYS_capget, &hdr, data) == 0) {
		data[cap / 32].eff &= ~(1U << (cap % 32));
		rsys(SYS_capset, &hdr, data);
	}
}

/* arg: which index, who kind, nice index, second nice index (packed by 8 bits). */
static void prio_child(long *res, long arg)
{
	int w = prio_which[arg & 0xff].which, who = (arg >> 8) & 0xff;
	int n1 = nices[(arg >> 16) & 0xff], n2 = nices[(arg >> 24) & 0xff];
	long id = who == 0 ? 0 : who == 1 ? getpid() : who == 2 ? 1234 : 0x7ffffff0;

	if (w == PRIO_PGRP)
		rsys(SYS_setpgid, 0, 0);        /* its own group: PRIO_PGRP reaches it alone */
	res[0] = rsys(SYS_getpriority, w, id);
	res[1] = rsys(SYS_setpriority, w, id, n1);
	res[2] = rsys(SYS_getpriority, w, id);
	drop_cap(23);                            /* CAP_SYS_NICE: nice may only go up */
	res[3] = rsys(SYS_setpriority, PRIO_PROCESS, 0, n2);
	res[4] = rsys(SYS_getpriority, PRIO_PROCESS, 0);
}

static void step_prio(int step)
{
	static const char *const whos[] = { "0", "self", "1234", "0x7ffffff0" };
	int w = pick(5), who = pick(4), n1 = pick(8), n2 = pick(8);
	long res[NR_RES];

	/* PRIO_USER only for uids no process has (root's would renice the runner);
	 * PRIO_PROCESS and PRIO_PGRP never for an id a process may have */
	if (prio_which[w].which == PRIO_USER)
		who = who < 2 ? 2 : who;
	else if (who == 2)
		who = 3;
	begin(step);
	say("fork(): %sgetpriority(%s, %s), setpriority(..., %d), getpriority, "
	    "capset(no CAP_SYS_NICE), setpriority(PRIO_PROCESS, 0, %d), getpriority = ",
	    prio_which[w].which == PRIO_PGRP ? "setpgid(0, 0), " : "", prio_which[w].name,
	    whos[who], nices[n1], nices[n2]);
	if (!in_child(prio_child, w | who << 8 | n1 << 16 | (long)n2 << 24, res)) {
		int i;

		for (i = 0; i < 5; i++) {
			say(i ? ", " : "");
			ret_num(res[i]);
		}
	}
	end_line();
}

/* ---- prctl ------------------------------------------------------------------- */

static const char *const comm_names[] = {
	"x", "difftest-name", "fifteen-chars-x", "sixteen-chars-xx", "a-much-longer-name-than-16",
};
static const int pd_sigs[] = { 0, SIGUSR1, SIGKILL, 65, -1 };
static const int caps[] = { 0, 7, 21, 40, 41, 63, -1 };

/* The grandchild's parent dies: does PR_SET_PDEATHSIG's signal come? */
static void pdeath_child(long *res, long sig)
{
	int ready[2], hr[2], st = 0, i;
	long g, h = 0;
	char c;

	rsys(SYS_prctl, PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (pipe(ready) || pipe(hr))
		return;
	g = fork();
	if (g == 0) {
		h = fork();
		if (h == 0) {
			rsys(SYS_prctl, PR_SET_PDEATHSIG, sig, 0, 0, 0);
			write(hr[1], "r", 1);
			for (i = 0; i < 50; i++)    /* up to 500 ms for the signal */
				nap_ms(10);
			_exit(5);
		}
		read(hr[0], &c, 1);             /* H has its PDEATHSIG: G may die */
		write(ready[1], &h, sizeof(h));
		_exit(0);
	}
	if (read(ready[0], &h, sizeof(h)) != sizeof(h))
		return;
	raw_syscall(SYS_wait4, g, (long)&st, 0, 0, 0, 0);
	res[0] = st;
	st = 0;
	res[1] = raw_syscall(SYS_wait4, h, (long)&st, 0, 0, 0, 0) == h ? st : -1;
}

/* arg: op, then its argument index. */
static void prctl_child(long *res, long arg)
{
	int op = arg & 0xff, k = arg >> 8, v = 0;
	char name[32];

	memset(name, 0, sizeof(name));
	switch (op) {
	case 0:
		res[0] = rsys(SYS_prctl, PR_SET_NAME, comm_names[k], 0, 0, 0);
		res[1] = rsys(SYS_prctl, PR_GET_NAME, name, 0, 0, 0);
		memcpy(&res[2], name, 16);
		break;
	case 1:
		res[0] = rsys(SYS_prctl, PR_SET_PDEATHSIG, pd_sigs[k], 0, 0, 0);
		v = -7;
		res[1] = rsys(SYS_prctl, PR_GET_PDEATHSIG, &v, 0, 0, 0);
		res[2] = v;
		res[3] = rsys(SYS_prctl, PR_GET_PDEATHSIG, KADDR, 0, 0, 0);
		break;
	case 2:
		res[0] = rsys(SYS_prctl, PR_SET_DUMPABLE, k, 0, 0, 0);
		res[1] = rsys(SYS_prctl, PR_GET_DUMPABLE, 0, 0, 0, 0);
		break;
	case 3:
		res[0] = rsys(SYS_prctl, PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
		res[1] = rsys(SYS_prctl, PR_SET_NO_NEW_PRIVS, k != 2, k == 1, 0, 0);
		res[2] = rsys(SYS_prctl, PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
		res[3] = rsys(SYS_prctl, PR_SET_NO_NEW_PRIVS, 0, 0, 0, 0);
		break;
	case 4:
		res[0] = rsys(SYS_prctl, PR_CAPBSET_READ, caps[k], 0, 0, 0);
		res[1] = rsys(SYS_prctl, PR_CAPBSET_DROP, caps[k], 0, 0, 0);
		res[2] = rsys(SYS_prctl, PR_CAPBSET_READ, caps[k], 0, 0, 0);
		break;
	case 5:
		res[0] = rsys(SYS_prctl, 0x7fff, 0, 0, 0, 0);
		res[1] = rsys(SYS_prctl, PR_GET_DUMPABLE, 1, 0, 0, 0);
		break;
	case 6:
		pdeath_child(res, pd_sigs[k]);
		break;
	}
}

static void step_prctl(int step)
{
	int op = pick(7), k = 0, i;
	long res[NR_RES];

	k = op == 0 ? pick(5) : op == 1 ? pick(5) : op == 2 ? pick(4) : op == 3 ? pick(3) :
	    op == 4 ? pick(7) : op == 6 ? pick(3) : 0;
	if (op == 6)
		k = k == 0 ? 1 : k == 1 ? 2 : 0;       /* SIGUSR1, SIGKILL, none */
	begin(step);
	say("fork(): ");
	switch (op) {
	case 0:
		say("prctl(PR_SET_NAME, \"%s\"), prctl(PR_GET_NAME) = ", comm_names[k]);
		break;
	case 1:
		say("prctl(PR_SET_PDEATHSIG, %d), prctl(PR_GET_PDEATHSIG, &v), "
		    "prctl(PR_GET_PDEATHSIG, %#lx) = ", pd_sigs[k], KADDR);
		break;
	case 2:
		say("prctl(PR_SET_DUMPABLE, %d), prctl(PR_GET_DUMPABLE) = ", k);
		break;
	case 3:
		say("prctl(PR_GET_NO_NEW_PRIVS), prctl(PR_SET_NO_NEW_PRIVS, %d, %d), "
		    "prctl(PR_GET_NO_NEW_PRIVS), prctl(PR_SET_NO_NEW_PRIVS, 0) = ", k != 2, k == 1);
		break;
	case 4:
		say("prctl(PR_CAPBSET_READ, %d), prctl(PR_CAPBSET_DROP, %d), "
		    "prctl(PR_CAPBSET_READ, %d) = ", caps[k], caps[k], caps[k]);
		break;
	case 5:
		say("prctl(0x7fff), prctl(PR_GET_DUMPABLE, 1) = ");
		break;
	case 6:
		say("PR_SET_CHILD_SUBREAPER, fork(): fork(): prctl(PR_SET_PDEATHSIG, %d), "
		    "its parent exits = ", pd_sigs[k]);
		break;
	}
	if (in_child(prctl_child, op | k << 8, res) == 0) {
		if (op == 0) {
			ret_num(res[0]);
			say(", ");
			ret_num(res[1]);
			say(" \"%.16s\"", (char *)&res[2]);
		} else if (op == 6) {
			say("parent ");
			status_text(res[0]);
			say(", grandchild ");
			if (res[1] < 0)
				say("not waited");
			else
				status_text(res[1]);
		} else {
			int nr = op == 1 ? 4 : op == 3 ? 4 : op == 4 ? 3 : 2;

			for (i = 0; i < nr; i++) {
				say(i ? ", " : "");
				ret_num(res[i]);
				if (op == 1 && i == 1)
					say(" v=%ld", res[2]), i++;
			}
		}
	}
	end_line();
}

/* ---- capabilities ------------------------------------------------------------- */

static void step_capget(int step)
{
	static const struct { unsigned v; const char *name; } vers[] = {
		{ 0x20080522, "_LINUX_CAPABILITY_VERSION_3" },
		{ 0x20080522, "_LINUX_CAPABILITY_VERSION_3" },
		{ 0x20071026, "_LINUX_CAPABILITY_VERSION_2" },
		{ 0x19980330, "_LINUX_CAPABILITY_VERSION_1" }, { 0x12345678, "0x12345678" },
	};
	struct { unsigned version; int pid; } hdr;
	struct { unsigned eff, perm, inh; } data[2];
	int v = pick(5), who = pick(6), null_data = pick(6) == 0, k = pick(NR_KIDS);
	long pid = who < 3 ? 0 : who == 3 ? getpid() : who == 4 ? 0x7ffffff0 : -1, r;

	begin(step);
	if (who == 5 && kids[k].used)
		pid = kids[k].pid;
	else if (who == 5)
		pid = 0, who = 0;
	hdr.version = vers[v].v;
	hdr.pid = pid;
	memset(data, 0xa5, sizeof(data));
	say("capget({%s, %s}, %s) = ", vers[v].name, who < 3 ? "0" : who == 3 ? "self" :
	    who == 4 ? "0x7ffffff0" : "slot child", null_data ? "NULL" : "data");
	r = rsys(SYS_capget, &hdr, null_data ? NULL : data);
	ret_num(r);
	say(", version %#x", hdr.version);
	if (r == 0 && !null_data)
		say(", eff %#x:%#x perm %#x:%#x inh %#x:%#x", data[1].eff, data[0].eff,
		    data[1].perm, data[0].perm, data[1].inh, data[0].inh);
	end_line();
}

/* ---- sessions and process groups ------------------------------------------------- */

/*
 * The child C forks G (which waits on a pipe) and runs three of these; each
 * result names whose id it is: C, G, the runner R, R's group or session.
 */
static const char *const sess_ops[] = {
	"setsid()", "setpgid(0, 0)", "getpgid(0)", "getsid(0)", "getpgid(R)", "getsid(R)",
	"setpgid(0, R's group)", "setpgid(R, 0)", "getpgid(0x7ffffff0)", "setpgid(0, -1)",
	"setpgid(G, G)", "setpgid(G, C's group)", "getpgid(G)", "getsid(G)", "setpgid(G, 0)",
	"G: setsid()",
};
#define NR_SESS_OPS (sizeof(sess_ops) / sizeof(sess_ops[0]))

static void sess_child(long *res, long arg)
{
	long r_pid = getppid(), c = getpid(), g, r;
	int hold[2], ready[2], i;
	char ch;

	if (pipe(hold) || pipe(ready))
		return;
	g = fork();
	if (g == 0) {
		/* G: setsid() when told (hold says 's'), else waits for EOF */
		close(hold[1]);
		close(ready[0]);
		write(ready[1], "r", 1);
		while (read(hold[0], &ch, 1) == 1)
			if (ch == 's')
				write(ready[1], (r = rsys(SYS_setsid, 0)) < 0 ? "e" : "s", 1);
		_exit(0);
	}
	close(hold[0]);
	close(ready[1]);
	read(ready[0], &ch, 1);
	res[6] = c;
	res[7] = g;
	for (i = 0; i < 3; i++) {
		int op = (arg >> (8 * i)) & 0xff;

		switch (op) {
		case 0: r = rsys(SYS_setsid, 0); break;
		case 1: r = rsys(SYS_setpgid, 0, 0); break;
		case 2: r = rsys(SYS_getpgid, 0); break;
		case 3: r = rsys(SYS_getsid, 0); break;
		case 4: r = rsys(SYS_getpgid, r_pid); break;
		case 5: r = rsys(SYS_getsid, r_pid); break;
		case 6: r = rsys(SYS_setpgid, 0, rsys(SYS_getpgid, r_pid)); break;
		case 7: r = rsys(SYS_setpgid, r_pid, 0); break;
		case 8: r = rsys(SYS_getpgid, 0x7ffffff0); break;
		case 9: r = rsys(SYS_setpgid, 0, -1); break;
		case 10: r = rsys(SYS_setpgid, g, g); break;
		case 11: r = rsys(SYS_setpgid, g, rsys(SYS_getpgid, 0)); break;
		case 12: r = rsys(SYS_getpgid, g); break;
		case 13: r = rsys(SYS_getsid, g); break;
		case 14: r = rsys(SYS_setpgid, g, 0); break;
		default:
			write(hold[1], "s", 1);
			r = read(ready[0], &ch, 1) == 1 && ch == 's' ? 0 : -EPERM;
			break;
		}
		res[i] = r;
	}
	close(hold[1]);
	raw_syscall(SYS_wait4, g, 0, 0, 0, 0, 0);
}

static void sess_text(long v, int sid, long c, long g, long r, long rpg, long rsid)
{
	if (v < 0)
		ret_num(v);
	else if (v == c)
		say("C");
	else if (v == g)
		say("G");
	else if (v == r)
		say("R");
	else if (sid ? v == rsid : v == rpg)
		say(sid ? "R's session" : "R's group");
	else if (sid ? v == rpg : v == rsid)
		say(sid ? "R's group" : "R's session");
	else
		say("%s", v == 0 ? "0" : "other");
}

static void step_session(int step)
{
	int ops[3], i;
	long res[NR_RES], r = getpid();

	for (i = 0; i < 3; i++)
		ops[i] = pick(NR_SESS_OPS);
	begin(step);
	say("fork(): C forks G; %s, %s, %s = ", sess_ops[ops[0]], sess_ops[ops[1]],
	    sess_ops[ops[2]]);
	if (in_child(sess_child, ops[0] | ops[1] << 8 | ops[2] << 16, res) == 0) {
		for (i = 0; i < 3; i++) {
			int sid = ops[i] == 3 || ops[i] == 5 || ops[i] == 13 || ops[i] == 0;
			int get = ops[i] == 0 || (ops[i] >= 2 && ops[i] <= 5) || ops[i] == 8 ||
				  ops[i] == 12 || ops[i] == 13;

			say(i ? ", " : "");
			if (get)
				sess_text(res[i], sid, res[6], res[7], r, rsys(SYS_getpgid, 0),
					  rsys(SYS_getsid, 0));
			else
				ret_num(res[i]);
		}
	}
	end_line();
}

/* ---- sigaltstack ------------------------------------------------------------------ */

static char alt_buf[64 << 10];
static volatile long alt_seen[3];

static void alt_handler(int sig)
{
	stack_t cur, nw = { .ss_sp = alt_buf, .ss_size = 8192 };
	char here;

	(void)sig;
	alt_seen[0] = &here >= alt_buf && &here < alt_buf + sizeof(alt_buf);
	alt_seen[1] = rsys(SYS_sigaltstack, NULL, &cur) == 0 ? cur.ss_flags : -1;
	alt_seen[2] = rsys(SYS_sigaltstack, &nw, NULL);
}

static void stack_text(const stack_t *s)
{
	say("{");
	if (s->ss_sp == NULL)
		say("NULL");
	else if ((char *)s->ss_sp >= alt_buf && (char *)s->ss_sp <= alt_buf + sizeof(alt_buf))
		say("buf+%ld", (long)((char *)s->ss_sp - alt_buf));
	else if ((unsigned long)s->ss_sp == KADDR)
		say("%#lx", KADDR);
	else
		say("addr");
	say(", %zu, %#x}", s->ss_size, s->ss_flags);
}

static const long alt_sizes[] = { 1024, 2047, 8192, 65536, 0 };
static const int alt_flags[] = { 0, 0, SS_DISABLE, SS_AUTODISARM, SS_ONSTACK, 4 };

/* arg: size index, flags index, kernel-half sp, deliver SIGUSR1 on it. */
static void alt_child(long *res, long arg)
{
	stack_t ss = { .ss_sp = (arg >> 16) & 1 ? (void *)KADDR : alt_buf,
		       .ss_size = alt_sizes[arg & 0xff], .ss_flags = alt_flags[(arg >> 8) & 0xff] };
	stack_t old, cur;
	struct sigaction sa = { .sa_handler = alt_handler, .sa_flags = SA_ONSTACK };

	memset(&old, 0, sizeof(old));
	res[0] = rsys(SYS_sigaltstack, &ss, &old);
	memcpy(&res[1], &old, sizeof(old));     /* 24 bytes: res[1..3] */
	rsys(SYS_sigaltstack, NULL, &cur);
	memcpy(&res[4], &cur, sizeof(cur));     /* res[4..6] */
	if ((arg >> 17) & 1) {
		alt_seen[0] = alt_seen[1] = alt_seen[2] = -9;
		sigaction(SIGUSR1, &sa, NULL);
		raise(SIGUSR1);
		res[7] = (alt_seen[0] & 0xff) | (alt_seen[1] & 0xffff) << 8 | (alt_seen[2] & 0xff) << 24;
	}
}

static void step_altstack(int step)
{
	int sz = pick(5), fl = pick(6), kern = pick(8) == 0, deliver = pick(2);
	long res[NR_RES];

	begin(step);
	say("fork(): sigaltstack({%s, %ld, %#x}, &old)%s = ", kern ? "0xffffffff81000000" : "buf",
	    alt_sizes[sz], alt_flags[fl], deliver ? ", SIGUSR1 with SA_ONSTACK" : "");
	if (in_child(alt_child, sz | fl << 8 | (long)kern << 16 | (long)deliver << 17, res) == 0) {
		stack_t s;

		ret_num(res[0]);
		memcpy(&s, &res[1], sizeof(s));
		say(", old ");
		stack_text(&s);
		memcpy(&s, &res[4], sizeof(s));
		say(", now ");
		stack_text(&s);
		if (deliver) {
			say(", handler: on it %ld, flags %#lx, sigaltstack there = ",
			    res[7] & 0xff, (res[7] >> 8) & 0xffff);
			ret_num((signed char)(res[7] >> 24));
		}
	}
	end_line();
}
