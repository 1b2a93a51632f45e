/* Doubly linked circular lists, as Linux's include/linux/list.h. */
#ifndef _LINUX_LIST_H
#define _LINUX_LIST_H

#include "linux/types.h"

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline void __list_add(struct list_head *n, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_add(n, head, head->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

static inline void list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	e->next = NULL;
	e->prev = NULL;
}

static inline void list_del_init(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	INIT_LIST_HEAD(e);
}

/* Take e off its list and put it after head (list_move) or before it (list_move_tail). */
static inline void list_move(struct list_head *e, struct list_head *head)
{
	list_del_init(e);
	list_add(e, head);
}

static inline void list_move_tail(struct list_head *e, struct list_head *head)
{
	list_del_init(e);
	list_add_tail(e, head);
}

static inline bool list_is_singular(const struct list_head *h)
{
	return h->next != h && h->next == h->prev;
}

static inline bool list_empty(const struct list_head *h)
{
	return h->next == h;
}

/* Empty, and nobody is changing it under us (Linux's: a lockless look before a lock). */
static inline bool list_empty_careful(const struct list_head *h)
{
	struct list_head *next = READ_ONCE(h->next);

	return next == h && next == READ_ONCE(h->prev);
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)
#define list_last_entry(head, type, member) list_entry((head)->prev, type, member)
#define list_for_each_entry(pos, head, member)                               \
	for (pos = list_entry((head)->next, typeof(*pos), member);           \
	     &pos->member != (head);                                         \
	     pos = list_entry(pos->member.next, typeof(*pos), member))

/* As list_for_each_entry, but pos may be removed from the list in the body. */
#define list_for_each_entry_safe(pos, n, head, member)                       \
	for (pos = list_entry((head)->next, typeof(*pos), member),           \
	     n = list_entry(pos->member.next, typeof(*pos), member);         \
	     &pos->member != (head);                                         \
	     pos = n, n = list_entry(n->member.next, typeof(*n), member))

#define list_for_each_entry_reverse(pos, head, member)                       \
	for (pos = list_entry((head)->prev, typeof(*pos), member);           \
	     &pos->member != (head);                                         \
	     pos = list_entry(pos->member.prev, typeof(*pos), member))

#endif
