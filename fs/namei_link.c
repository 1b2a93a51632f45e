/*
 * The walk that follows symbolic links (Linux's link_path_walk and
 * pick_link, the part of fs/namei.c about links): a path fs/namei.c could
 * not resolve as text is walked again component by component, each link's
 * text spliced in before what follows it, up to MAXSYMLINKS (ELOOP); a
 * last magic link (/proc/<pid>/fd/N) gives its file's inode instead.
 *
 * Each component is looked up in the directory the walk stands in (struct
 * nameidata) while that is a directory of a tmpfs with no mount below:
 * so a link met walks on from its own directory, and only an absolute
 * target or a ".." makes the walk look its text up whole again.
 *
 * Locking: as fs/namei.c's lookups (a directory's i_rwsem shared for one
 * lookup; the walk holds a reference to where it stands); the walk's
 * buffers are its own.
 */
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/slab.h"
#include "linux/string.h"
#include "fs/namei.h"

/* The text of a symbolic link: its i_link, or what its get_link writes into buf (PATH_MAX). */
const char *inode_get_link(struct inode *inode, char *buf)
{
	if (inode->i_link)
		return inode->i_link;
	if (!inode->i_op || !inode->i_op->get_link)
		return ERR_PTR(-EINVAL);
	return inode->i_op->get_link(inode, buf);
}

#define REST_ON_STACK   192     /* a walk's rest this long needs no kmalloc */

/*
 * A link_walk in progress: what is left to walk, with the links met so
 * far spliced in (rest, size bytes: on the stack while it fits, else a
 * kmalloc grown as targets need, WALK_MAX at most); a buffer for links whose text is generated
 * (/proc's), made when one is met; the links followed; where the walk
 * stands; and the last component's inode once it was looked up, for the
 * caller to keep.
 */
struct link_walk {
	struct walk_bufs *w;
	char *rest;
	size_t size;
	char *heap;             /* rest, once it was kmalloc'd */
	char *link;
	int links;
	struct nameidata *nd;
	struct inode *last;
};

/*
 * Put the text of the link inode in front of the rest of the walk, which
 * starts at rest + next: "target/next", into rest (grown if it must be).
 * 0, or -ENAMETOOLONG / -ENOMEM / get_link's error.
 */
static long splice_link(struct link_walk *lw, struct inode *inode, size_t next)
{
	const char *target;
	size_t tlen, nlen = strlen(lw->rest + next), need;

	if (!inode->i_link && !lw->link && !(lw->link = kmalloc(PATH_MAX)))
		return -ENOMEM;
	target = inode_get_link(inode, lw->link);
	if (IS_ERR(target))
		return PTR_ERR(target);
	tlen = strlen(target);
	if (!tlen)
		return -ENOENT;
	need = tlen + 1 + nlen + 1;
	if (need > WALK_MAX)
		return -ENAMETOOLONG;
	if (need > lw->size) {
		char *grown = kmalloc(need);

		if (!grown)
			return -ENOMEM;
		memcpy(grown + tlen + 1, lw->rest + next, nlen + 1);
		kfree(lw->heap);
		lw->rest = lw->heap = grown;
		lw->size = need;
	} else {
		memmove(lw->rest + tlen + 1, lw->rest + next, nlen + 1);
	}
	memcpy(lw->rest, target, tlen);
	lw->rest[tlen] = '/';
	return 0;
}

/* Append component (len bytes) to the walk's out (*w bytes long): 0 or -errno. */
static long append(struct walk_bufs *wb, size_t *w, const char *component, size_t len)
{
	long err = walk_out_reserve(wb, *w + 1 + len + 1);

	if (err)
		return err;
	if (*w)
		wb->out[(*w)++] = '/';
	memcpy(wb->out + *w, component, len);
	*w += len;
	wb->out[*w] = '\0';
	return 0;
}

/*
 * The inode out names, its last component c (len bytes) just appended:
 * the one the caller's text lookup found there (nd->found, at the walk's
 * start), else looked up in the directory the walk stands in if that is
 * walkable, else as the whole text (which sets where it stands to out's
 * parent).  A reference, NULL, or an ERR_PTR.
 */
static struct inode *step(struct nameidata *nd, const char *out, const char *c, size_t len)
{
	struct inode *found = nd->found;
	char name[NAME_MAX + 1];

	if (found) {
		nd->found = NULL;
		return found;
	}
	if (!nd->dir || !nd->walkable || mounts_changed(nd->mount_seq))
		return lookup_text(out, nd);
	if (len > NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	memcpy(name, c, len);
	name[len] = '\0';
	return dir_lookup(nd->dir, name);
}

/*
 * A link met: its text spliced into the rest before what follows it (at
 * offset next), out cut back to where that text starts — the root for an
 * absolute one (where the walk stands is then not known), the link's
 * directory (where it stands) for a relative one.  0 or -errno.
 */
static long follow_link(struct link_walk *lw, struct inode *link, size_t *w, size_t next)
{
	char *out = lw->w->out;
	long err = ++lw->links > MAXSYMLINKS ? -ELOOP : splice_link(lw, link, next);

	iput(link);
	if (err)
		return err;
	if (lw->rest[0] == '/') {
		*w = strlen(lw->w->root);
		memcpy(out, lw->w->root, *w);
		nd_put(lw->nd);
	} else {
		while (*w && out[*w - 1] != '/')
			(*w)--;
		*w -= !!*w;
	}
	out[*w] = '\0';
	return 0;
}

/*
 * One component c (len bytes) of link_walk, just appended to out (w
 * bytes), the last one if last: a link to follow (follow) is spliced in
 * (follow_link); a last magic link gives its target (jump_link), whose
 * name then replaces out; a directory on the way is where the walk
 * stands next; a last component's inode, lw->last keeps.  Returns 1 if
 * the walk goes on from the rest's start, 0 to go on from next, or
 * -errno (ENOENT: missing; ENOTDIR: a file on the way).
 */
static long walk_component(struct link_walk *lw, const char *c, size_t len, size_t *w,
			   size_t next, bool follow)
{
	struct inode *inode = step(lw->nd, lw->w->out, c, len);
	bool last = !lw->rest[next];
	long err;

	if (IS_ERR_OR_NULL(inode))
		return inode ? PTR_ERR(inode) : -ENOENT;
	if (last && follow && S_ISLNK(inode->i_mode) && inode->i_op && inode->i_op->jump_link) {
		err = walk_out_reserve(lw->w, PATH_MAX);
		lw->last = err ? ERR_PTR(err) : inode->i_op->jump_link(inode, lw->w->out);
		iput(inode);
		if (IS_ERR(lw->last)) {
			err = PTR_ERR(lw->last);
			lw->last = NULL;
			return err;
		}
		lw->w->jumped = true;
		return 0;
	}
	if (follow && S_ISLNK(inode->i_mode)) {
		err = follow_link(lw, inode, w, next);
		return err ? err : 1;
	}
	if (last) {
		lw->last = inode;
		return 0;
	}
	if (!S_ISDIR(inode->i_mode)) {
		iput(inode);
		return -ENOTDIR;
	}
	if (lw->nd->dir)
		iput(lw->nd->dir);
	lw->nd->dir = inode;
	return 0;
}

/* Before a "." or "..": out must name a directory (it does if the walk stands in one). */
static long dot_dir(struct link_walk *lw)
{
	return lw->nd->dir ? 0 : must_be_dir(lw->w->out);
}

/*
 * The walk that follows symbolic links (Linux's link_path_walk): in, an
 * absolute normalized or raw path, component by component into w->out,
 * which never holds a link — so its ".." is plain text again; an
 * absolute link's target starts at the root (w->root, chroot's).  If nd
 * stands somewhere (nd->dir), in is w->out itself, resolved up to
 * nd->at, and the walk starts there; nd is where it ends, for the caller
 * to nd_put().  Every component is looked up but a last one with
 * LOOKUP_PARENT; links are followed on the way, and at the end with
 * LOOKUP_FOLLOW or a trailing '/'.  *last gets the last component's
 * inode (a reference) if the walk looked it up, else NULL (it was "."
 * or ".." or not looked up); w->jumped says it is a magic link's
 * target, whose file's name is then in w->out.  0 or -errno (ENOENT,
 * ENOTDIR, ELOOP, ENAMETOOLONG, ENOMEM).
 */
long link_walk(struct walk_bufs *wb, const char *in, struct nameidata *nd, unsigned int flags,
	       struct inode **last)
{
	struct link_walk lw = { .w = wb, .size = strlen(in) + 1, .nd = nd };
	size_t r = nd->dir ? nd->at : 0, w = r ? r - 1 : 0;
	char small[REST_ON_STACK];
	long err = 0;

	*last = NULL;
	if (lw.size <= sizeof(small)) {
		lw.rest = small;
		lw.size = sizeof(small);
	} else if (!(lw.rest = lw.heap = kmalloc(lw.size))) {
		return -ENOMEM;
	}
	memcpy(lw.rest, in, strlen(in) + 1);
	memmove(wb->out, lw.rest, w);           /* in may be out: what is resolved stays */
	wb->out[w] = '\0';
	while (lw.rest[r] && err >= 0) {
		const char *c = lw.rest + r;
		size_t len = strcspn(c, "/"), next = r + len;
		bool dot = len == 1 && c[0] == '.', dotdot = len == 2 && !strncmp(c, "..", 2);
		bool follow = (lw.rest[next] == '/' && !(flags & LOOKUP_PARENT)) || (flags & LOOKUP_FOLLOW);

		while (lw.rest[next] == '/')
			next++;
		if (dot || dotdot) {
			err = dot_dir(&lw);
			if (dotdot) {
				path_pop(wb->out, &w, wb->root);
				nd_put(nd);
			}
		} else if (len) {
			err = append(wb, &w, c, len);
			if (!err && (lw.rest[next] || !(flags & LOOKUP_PARENT)))
				err = walk_component(&lw, c, len, &w, next, lw.rest[next] || follow);
			if (err == 1) {
				r = 0;
				continue;
			}
		}
		r = next;
	}
	kfree(lw.link);
	kfree(lw.heap);
	if (err >= 0)
		*last = lw.last;
	else if (lw.last)
		iput(lw.last);
	wb->jumped = err >= 0 && wb->jumped;
	return err < 0 ? err : 0;
}
