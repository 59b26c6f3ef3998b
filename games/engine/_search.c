/* The solver's search in C: games.engine._search, built by `make install` (games/engine/build.py).
 *
 * The same search as solver_core.Search (the interpreted reference), move for move: the same
 * candidate moves in the same order, the same reductions (docs/solver.md), the same probes'
 * random orders (Python's Mersenne Twister, seeded as random.Random(seed)), so both enter the
 * same positions and find the same lines. What differs is the data: a position is fixed arrays
 * of small ints, its key the same 52 bytes as the reference's exact key (one byte per card),
 * hashed by a 64-bit Zobrist key updated with each byte that changes, and every search of one
 * solve shares one fixed-size open-addressing table of those keys, sized once from the node
 * budget and the memory bound. Nothing is allocated per position: the stacks grow only when
 * the search goes deeper than ever before.
 *
 * The thin binding at the end gives Python two types: Core (the root position, the rule's
 * tables and the shared table) and Search (one depth-first search: the main one or a probe),
 * whose run(limit) solver_core.search() drives exactly as it drives solver_core.Search.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FOUND 7
#define BOTTOM 52
#define HOME 53
#define HIDDEN 64
#define WAITING 128
#define STRIDE 64
#define GROUP_LIMIT 20
#define EMPTY_TOP 255
#define CARD_SHIFT 11
#define DEST_SHIFT 8
#define SCORE_SHIFT 17
#define ABSENT INT32_MIN
#define LOST_BIT 0x80000000u
/* Candidates of one position: well under 256 (their index takes 8 bits). */
#define MAX_CANDIDATES 256

static const int KINGS[4] = {12, 25, 38, 51};
static uint64_t ZOBRIST[52][256];
static PyObject *TableFull;

/* -- the shared table ------------------------------------------------------------------------ */

/* One position: its key, the Tarjan index the main search and the current probe gave it
 * (ABSENT: not entered; -1: its component closed), the probe generation that index belongs to,
 * and LOST_BIT once some search proved it lost. 72 bytes. */
typedef struct {
    uint64_t hash;
    int32_t main;
    int32_t probe;
    uint32_t gen;
    uint8_t key[52];
} Entry;

/* Memo of the take-back relaxation (docs/solver.md, "Waiting sets that cannot end"). */
typedef struct {
    uint64_t tops, packed, waiting;
    uint8_t used, verdict;
} BlockEntry;

struct Search;

typedef struct {
    PyObject_HEAD
    uint8_t children[52][8];
    uint8_t nchildren[52];
    uint8_t parents[52][8];
    uint8_t nparents[52];
    uint8_t has_need[52];
    uint8_t need[52][4];
    uint8_t fits[52 * 52];
    uint8_t root_cols[7][52];
    int root_len[7];
    int root_down[7];
    int root_found[4];
    Entry *table;
    uint64_t mask;
    uint64_t count;
    uint64_t limit;   /* entries the table may hold at its present size */
    uint64_t most;    /* entries it may ever hold (the memory bound) */
    uint32_t gen;
    /* The main search and the current probe, whose stacks point into the table. */
    struct Search *live[2];
    int8_t *dead_memo; /* by face-down counts (mixed radix): 0 unknown, 1 alive, 2 dead */
    int dead_radix[7];
    BlockEntry *block;
    uint64_t block_mask, block_count;
} Core;

static uint64_t key_hash(uint64_t h) { return h ? h : 1; }

/* The entry holding `key`, or NULL. */
static Entry *table_get(Core *c, uint64_t h, const uint8_t *key) {
    h = key_hash(h);
    uint64_t i = h & c->mask;
    for (;;) {
        Entry *e = &c->table[i];
        if (!e->hash) return NULL;
        if (e->hash == h && !memcmp(e->key, key, 52)) return e;
        i = (i + 1) & c->mask;
    }
}

/* An entry nobody needs: entered only by a probe that has ended, and not lost. */
static int stale(Core *c, const Entry *e) {
    return e->main == ABSENT && !(e->gen & LOST_BIT) && e->gen != c->gen;
}

static int table_grow(Core *c);

/* The entry holding `key`, claimed (a stale one reused, else an empty one) when absent;
 * NULL with TableFull set when the table is full. */
static Entry *table_put(Core *c, uint64_t h, const uint8_t *key) {
    h = key_hash(h);
    uint64_t i = h & c->mask;
    Entry *reuse = NULL;
    for (;;) {
        Entry *e = &c->table[i];
        if (!e->hash) break;
        if (e->hash == h && !memcmp(e->key, key, 52)) return e;
        if (!reuse && stale(c, e)) reuse = e;
        i = (i + 1) & c->mask;
    }
    Entry *e = reuse;
    if (!e) {
        if (c->count >= c->limit) {
            if (c->limit >= c->most) {
                PyErr_SetString(TableFull, "the solver's table is full");
                return NULL;
            }
            if (table_grow(c) < 0) return NULL;
            return table_put(c, h, key);
        }
        c->count++;
        e = &c->table[i];
    }
    e->hash = h;
    e->main = ABSENT;
    e->probe = ABSENT;
    e->gen = 0;
    memcpy(e->key, key, 52);
    return e;
}

/* -- Python's Mersenne Twister (random.Random(seed).random) ------------------------------------ */

typedef struct {
    uint32_t mt[624];
    int mti;
} Twister;

static void mt_init(Twister *t, uint32_t s) {
    t->mt[0] = s;
    for (int i = 1; i < 624; i++)
        t->mt[i] = 1812433253U * (t->mt[i - 1] ^ (t->mt[i - 1] >> 30)) + (uint32_t)i;
    t->mti = 624;
}

/* random.Random(seed) for 0 <= seed < 2**32: init_by_array([seed]). */
static void mt_seed(Twister *t, uint32_t seed) {
    mt_init(t, 19650218U);
    uint32_t *mt = t->mt;
    int i = 1, j = 0, k;
    for (k = 624; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + seed + (uint32_t)j;
        i++;
        j = 0;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
    }
    for (k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
}

static uint32_t mt_next(Twister *t) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    uint32_t *mt = t->mt;
    if (t->mti >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1U];
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1U];
        }
        y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 1U];
        t->mti = 0;
    }
    y = mt[t->mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static double mt_random(Twister *t) {
    uint32_t a = mt_next(t) >> 5, b = mt_next(t) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* -- one search ------------------------------------------------------------------------------ */

typedef struct {
    uint64_t hash;
    uint64_t pending;
    uint8_t key[52];
} Saved;

typedef struct Search {
    PyObject_HEAD
    Core *core;
    int main; /* the main search (Tarjan indexes in Entry.main), else a probe */
    uint32_t gen;
    int noise;
    int free_take_backs;
    Twister twister;
    uint8_t tab[7 * STRIDE];
    int lens[7];
    int down[7];
    int found[4];
    int on_found;
    int loc[52];
    int pos[52];
    uint8_t key[52];
    uint64_t hash;
    uint64_t pending; /* cards waiting after take-backs, as a mask */
    long long nodes;
    char started;
    char finished;
    PyObject *line;
    int64_t low;
    /* The undo log: one int per primitive move (see shift()). */
    int32_t *log;
    size_t log_n, log_cap;
    int32_t *prefix;
    size_t prefix_n;
    /* Per depth: where its candidates start, how many, the next one, the lowest Tarjan index
     * reached, its entry, where its moves start in the log, the key before its move. */
    size_t *cand_start;
    int *cand_n, *next;
    int64_t *lows;
    Entry **entry;
    size_t *marks;
    Saved *saved;
    size_t depth_cap;
    long long depth;
    /* Candidate moves of every depth, and whether each one was prepared (by append index). */
    int64_t *cands;
    uint8_t *prepared;
    size_t cands_cap, prepared_cap;
    Entry **scc;
    size_t scc_n, scc_cap;
} Search;

/* The slot of an entry copied into the (larger) table: the key is there. */
static Entry *moved_entry(Core *c, const Entry *old) { return table_get(c, old->hash, old->key); }

/* Double the table (up to the bound), dropping stale entries, and point the live searches'
 * stacks at the new slots. */
static int table_grow(Core *c) {
    uint64_t size = (c->mask + 1) * 2;
    Entry *old = c->table, *table = calloc(size, sizeof(Entry));
    if (!table) {
        PyErr_NoMemory();
        return -1;
    }
    uint64_t old_size = c->mask + 1;
    c->table = table;
    c->mask = size - 1;
    c->count = 0;
    for (uint64_t x = 0; x < old_size; x++) {
        const Entry *e = &old[x];
        if (!e->hash || stale(c, e)) continue;
        uint64_t i = e->hash & c->mask;
        while (table[i].hash) i = (i + 1) & c->mask;
        table[i] = *e;
        c->count++;
    }
    c->limit = size / 4 * 3 < c->most ? size / 4 * 3 : c->most;
    for (int k = 0; k < 2; k++) {
        struct Search *s = c->live[k];
        if (!s) continue;
        for (long long d = 0; d <= s->depth; d++) s->entry[d] = moved_entry(c, s->entry[d]);
        for (size_t x = 0; x < s->scc_n; x++) s->scc[x] = moved_entry(c, s->scc[x]);
    }
    free(old);
    return 0;
}

static int grow(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 64;
    while (n < need) n *= 2;
    void *q = realloc(*p, n * size);
    if (!q) {
        PyErr_NoMemory();
        return -1;
    }
    *p = q;
    *cap = n;
    return 0;
}

static int grow_depths(Search *s, size_t need) {
    if (need <= s->depth_cap) return 0;
    size_t n = s->depth_cap ? s->depth_cap : 64;
    while (n < need) n *= 2;
#define REGROW(field)                                                  \
    do {                                                               \
        void *q = realloc(s->field, n * sizeof(*s->field));            \
        if (!q) {                                                      \
            PyErr_NoMemory();                                          \
            return -1;                                                 \
        }                                                              \
        s->field = q;                                                  \
    } while (0)
    REGROW(cand_start);
    REGROW(cand_n);
    REGROW(next);
    REGROW(lows);
    REGROW(entry);
    REGROW(marks);
    REGROW(saved);
#undef REGROW
    s->depth_cap = n;
    return 0;
}

static inline void set_byte(Search *s, int card, int byte) {
    s->hash ^= ZOBRIST[card][s->key[card]] ^ ZOBRIST[card][byte];
    s->key[card] = (uint8_t)byte;
}

static inline int top(const Search *s, int j) {
    int n = s->lens[j];
    return n ? s->tab[j * STRIDE + n - 1] : BOTTOM;
}

static inline int top_under(const Search *s, int j) {
    int n = s->lens[j];
    return n > 1 ? s->tab[j * STRIDE + n - 2] : BOTTOM;
}

static inline int safe_at(const Core *c, const int *found, int card) {
    const uint8_t *need = c->need[card];
    return c->has_need[card] && found[0] >= need[0] && found[1] >= need[1] &&
           found[2] >= need[2] && found[3] >= need[3];
}

static inline int32_t seen_get(const Search *s, const Entry *e) {
    if (!e) return ABSENT;
    if (s->main) return e->main;
    return (e->gen & ~LOST_BIT) == s->gen ? e->probe : ABSENT;
}

static inline void seen_set(Search *s, Entry *e, int32_t index) {
    if (s->main) {
        e->main = index;
    } else {
        e->gen = (e->gen & LOST_BIT) | s->gen;
        e->probe = index;
    }
}

static inline int is_lost(const Entry *e) { return e && (e->gen & LOST_BIT); }

/* The key bytes after moving `card` (with what lies on it) to `dest`, waiting aside
 * (solver_core.Search.code_after), written into `key`/`hash`. */
static void key_after(const Search *s, int card, int dest, uint8_t *key, uint64_t *hash) {
    int src = s->loc[card];
    int old = key[card], byte;
    if (src == FOUND) {
        byte = old + top(s, dest) - HOME;
    } else {
        int i = s->pos[card];
        int below = i ? s->tab[src * STRIDE + i - 1] : BOTTOM;
        int onto = dest == FOUND ? HOME : top(s, dest);
        byte = old + onto - below;
        if (i && s->down[src] == i) {
            *hash ^= ZOBRIST[below][key[below]] ^ ZOBRIST[below][key[below] - HIDDEN];
            key[below] -= HIDDEN;
        }
    }
    *hash ^= ZOBRIST[card][old] ^ ZOBRIST[card][byte];
    key[card] = (uint8_t)byte;
}

/* Move the waiting bits from the cards of `s->pending` to those of `waiting`. */
static void key_waiting(const Search *s, uint64_t waiting, uint8_t *key, uint64_t *hash) {
    uint64_t change = s->pending ^ waiting;
    while (change) {
        int c = __builtin_ctzll(change);
        change &= change - 1;
        int byte = key[c] + ((waiting >> c) & 1 ? WAITING : -WAITING);
        *hash ^= ZOBRIST[c][key[c]] ^ ZOBRIST[c][byte];
        key[c] = (uint8_t)byte;
    }
}

static void set_pending(Search *s, uint64_t waiting) {
    key_waiting(s, waiting, s->key, &s->hash);
    s->pending = waiting;
}

/* solver_core._took_back on masks: `card` waits; it uses `target` and, when that one waits,
 * the next higher card of its suit. */
static inline uint64_t took_back(uint64_t pending, int card, int target) {
    if (!pending) return 1ULL << card;
    uint64_t kept = pending;
    if (target >= 0 && target < 52) kept &= ~(1ULL << target);
    if (card % 13 != 12) kept &= ~(1ULL << (card + 1));
    return kept | (1ULL << card);
}

/* Move the cards (solver_core.Search.shift); the record for undo(). */
static int32_t shift(Search *s, int card, int dest) {
    int src = s->loc[card];
    if (src == FOUND) {
        int n = s->lens[dest];
        s->tab[dest * STRIDE + n] = (uint8_t)card;
        s->lens[dest] = n + 1;
        s->loc[card] = dest;
        s->pos[card] = n;
        s->found[card / 13]--;
        s->on_found--;
        return card | dest << 6 | FOUND << 9 | 1 << 12;
    }
    int i = s->pos[card], moved;
    if (dest == FOUND) {
        s->loc[card] = FOUND;
        s->found[card / 13]++;
        s->on_found++;
        moved = 1;
    } else {
        int base = src * STRIDE, end = base + s->lens[src];
        int d = s->lens[dest], at = dest * STRIDE + d;
        moved = end - base - i;
        for (int x = base + i; x < end; x++) {
            int g = s->tab[x];
            s->tab[at++] = (uint8_t)g;
            s->loc[g] = dest;
            s->pos[g] = d++;
        }
        s->lens[dest] = d;
    }
    s->lens[src] = i;
    if (i && s->down[src] == i) {
        s->down[src] = i - 1;
        return card | dest << 6 | src << 9 | moved << 12 | 1 << 18;
    }
    return card | dest << 6 | src << 9 | moved << 12;
}

static void undo(Search *s, int32_t record) {
    int card = record & 63, dest = (record >> 6) & 7, src = (record >> 9) & 7;
    if (src == FOUND) {
        s->lens[dest]--;
        s->loc[card] = FOUND;
        s->found[card / 13]++;
        s->on_found++;
        return;
    }
    if (record >> 18) s->down[src]++;
    int i = s->lens[src], at = src * STRIDE + i;
    if (dest == FOUND) {
        s->tab[at] = (uint8_t)card;
        s->loc[card] = src;
        s->pos[card] = i;
        s->lens[src] = i + 1;
        s->found[card / 13]--;
        s->on_found--;
        return;
    }
    int moved = (record >> 12) & 63;
    int d = s->lens[dest] - moved;
    s->lens[dest] = d;
    s->lens[src] = i + moved;
    for (int x = dest * STRIDE + d; x < dest * STRIDE + d + moved; x++) {
        int g = s->tab[x];
        s->tab[at++] = (uint8_t)g;
        s->loc[g] = src;
        s->pos[g] = i++;
    }
}

static int log_push(Search *s, int32_t record) {
    if (grow((void **)&s->log, &s->log_cap, s->log_n + 1, sizeof(int32_t)) < 0) return -1;
    s->log[s->log_n++] = record;
    return 0;
}

static int apply(Search *s, int card, int dest) {
    key_after(s, card, dest, s->key, &s->hash);
    return log_push(s, shift(s, card, dest));
}

static void undo_to(Search *s, size_t start) {
    while (s->log_n > start) undo(s, s->log[--s->log_n]);
}

/* Every safe foundation move (solver_core.Search.autoplay). */
static int autoplay(Search *s, int src) {
    const Core *c = s->core;
    if (src >= 0 && ((s->log[s->log_n - 1] >> 6) & 7) != FOUND) {
        int n = s->lens[src];
        if (!n) return 0;
        int t = s->tab[src * STRIDE + n - 1];
        if (s->found[t / 13] != t % 13 || !safe_at(c, s->found, t)) return 0;
    }
    int progress = 1;
    while (progress) {
        progress = 0;
        for (int j = 0; j < 7; j++) {
            int n = s->lens[j];
            if (!n) continue;
            int t = s->tab[j * STRIDE + n - 1];
            if (s->found[t / 13] == t % 13 && safe_at(c, s->found, t)) {
                if (apply(s, t, FOUND) < 0) return -1;
                progress = 1;
                break;
            }
        }
    }
    return 0;
}

/* -- dead positions (solver_core.Search._dead) ------------------------------------------------ */

static int compute_dead(const Core *c, const int *down) {
    int where_j[52], where_k[52];
    uint64_t hidden = 0;
    for (int x = 0; x < 52; x++) where_j[x] = -1;
    for (int j = 0; j < 7; j++)
        for (int k = 0; k < down[j]; k++) {
            int card = c->root_cols[j][k];
            where_j[card] = j;
            where_k[card] = k;
            hidden |= 1ULL << card;
        }
    if (!hidden) return 0;
    /* For each hidden card: the hidden card right above it (or -1), and its options. */
    int first[52];
    uint64_t options[52][9];
    int n_options[52];
    for (uint64_t rest = hidden; rest; rest &= rest - 1) {
        int h = __builtin_ctzll(rest);
        int j = where_j[h], k = where_k[h];
        int above = k + 1 < c->root_len[j] ? c->root_cols[j][k + 1] : -1;
        first[h] = k + 1 < down[j] ? above : -1;
        int n = 0;
        if (above < 0) {
            options[h][n++] = 0;
        } else if (above % 13 == 12) {
            options[h][n++] = 0;
        } else {
            int broke = 0;
            for (int x = 0; x < c->nparents[above]; x++) {
                int p = c->parents[above][x];
                if (where_j[p] < 0) {
                    options[h][n++] = 0;
                    broke = 1;
                    break;
                }
                if (where_j[p] == j && where_k[p] <= k) continue;
                options[h][n++] = 1ULL << p;
            }
            if (!broke) {
                uint64_t need = 0;
                int possible = 1;
                for (int q = (above / 13) * 13; q < above; q++) {
                    if (where_j[q] < 0) continue;
                    if (where_j[q] == j && where_k[q] <= k) {
                        possible = 0;
                        break;
                    }
                    need |= 1ULL << q;
                }
                if (possible) options[h][n++] = need;
            }
        }
        n_options[h] = n;
    }
    uint64_t freed = 0;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint64_t rest = hidden & ~freed; rest; rest &= rest - 1) {
            int h = __builtin_ctzll(rest);
            if (first[h] >= 0 && !((freed >> first[h]) & 1)) continue;
            for (int x = 0; x < n_options[h]; x++)
                if (!(options[h][x] & ~freed)) {
                    freed |= 1ULL << h;
                    changed = 1;
                    break;
                }
        }
    }
    return freed != hidden;
}

static int dead(Search *s) {
    Core *c = s->core;
    if (!c->dead_memo) return compute_dead(c, s->down);
    int index = 0;
    for (int j = 0; j < 7; j++) index += s->down[j] * c->dead_radix[j];
    int8_t v = c->dead_memo[index];
    if (!v) {
        v = compute_dead(c, s->down) ? 2 : 1;
        c->dead_memo[index] = v;
    }
    return v == 2;
}

/* -- waiting sets that cannot end (solver_core.Search.block_can_end) -------------------------- */

static int can_exit(const Search *s, const int *found, int card) {
    const Core *c = s->core;
    for (int x = 0; x < c->nchildren[card]; x++) {
        int ch = c->children[card][x];
        if (found[ch / 13] <= ch % 13 &&
            (s->loc[ch] == FOUND || s->pos[ch] >= s->down[s->loc[ch]]))
            return 1;
    }
    return 0;
}

static uint64_t down_key(const Search *s) {
    uint64_t k = 0;
    for (int j = 0; j < 7; j++) k |= (uint64_t)s->down[j] << (6 * j);
    return k;
}

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static BlockEntry *block_slot(Core *c, uint64_t tops, uint64_t packed, uint64_t waiting) {
    uint64_t i = mix(tops ^ mix(packed ^ mix(waiting))) & c->block_mask;
    for (;;) {
        BlockEntry *b = &c->block[i];
        if (!b->used || (b->tops == tops && b->packed == packed && b->waiting == waiting)) return b;
        i = (i + 1) & c->block_mask;
    }
}

static int block_grow(Core *c) {
    uint64_t old_size = c->block_mask + 1, size = old_size * 2;
    BlockEntry *old = c->block;
    BlockEntry *fresh = calloc(size, sizeof(BlockEntry));
    if (!fresh) {
        PyErr_NoMemory();
        return -1;
    }
    c->block = fresh;
    c->block_mask = size - 1;
    for (uint64_t i = 0; i < old_size; i++)
        if (old[i].used) *block_slot(c, old[i].tops, old[i].packed, old[i].waiting) = old[i];
    free(old);
    return 0;
}

/* 1 or 0, -1 on error. */
static int block_search(Search *s, const int *found, const int *tops, uint64_t waiting) {
    Core *c = s->core;
    uint64_t mask = 0;
    int empties = 0;
    for (int j = 0; j < 7; j++) {
        if (tops[j] == EMPTY_TOP)
            empties++;
        else
            mask |= 1ULL << tops[j];
    }
    uint64_t packed = (uint64_t)found[0] | (uint64_t)found[1] << 4 | (uint64_t)found[2] << 8 |
                      (uint64_t)found[3] << 12 | (uint64_t)empties << 16 | down_key(s) << 19;
    BlockEntry *b = block_slot(c, mask, packed, waiting);
    if (b->used) return b->verdict;
    int verdict = __builtin_popcountll(waiting) == 1 && can_exit(s, found, __builtin_ctzll(waiting));
    for (int suit = 0; suit < 4 && !verdict; suit++) {
        int rank = found[suit];
        if (!rank) continue;
        int card = suit * 13 + rank - 1;
        if (safe_at(c, found, card)) continue; /* safe cards stay home */
        int lower[4] = {found[0], found[1], found[2], found[3]};
        lower[suit] = rank - 1;
        for (int j = 0; j < 7 && !verdict; j++) {
            int target = tops[j], repeated = 0;
            for (int x = 0; x < j; x++) repeated |= tops[x] == target;
            if (repeated) continue; /* each distinct top once */
            if (target == EMPTY_TOP) {
                if (card % 13 != 12) continue;
            } else if (!c->fits[card * 52 + target]) {
                continue;
            }
            int moved[7];
            memcpy(moved, tops, sizeof moved);
            moved[j] = card;
            uint64_t after = took_back(waiting, card, target == EMPTY_TOP ? -1 : target);
            int r = block_search(s, lower, moved, after);
            if (r < 0) return -1;
            verdict = r;
        }
    }
    if ((c->block_count + 1) * 4 > (c->block_mask + 1) * 3) {
        if (block_grow(c) < 0) return -1;
    }
    b = block_slot(c, mask, packed, waiting);
    b->used = 1;
    b->tops = mask;
    b->packed = packed;
    b->waiting = waiting;
    b->verdict = (uint8_t)verdict;
    c->block_count++;
    return verdict;
}

static int block_can_end(Search *s, int card, int k, uint64_t waiting) {
    int found[4] = {s->found[0], s->found[1], s->found[2], s->found[3]};
    found[card / 13]--;
    if (__builtin_popcountll(waiting) == 1 && can_exit(s, found, __builtin_ctzll(waiting)))
        return 1;
    int tops[7];
    for (int j = 0; j < 7; j++)
        tops[j] = s->lens[j] ? s->tab[j * STRIDE + s->lens[j] - 1] : EMPTY_TOP;
    tops[k] = card;
    return block_search(s, found, tops, waiting);
}

/* -- move generation (solver_core.Search.moves) ----------------------------------------------- */

/* A candidate found but not yet added: its child's key when it is to be prepared. The
 * table lookups of a position's children are made together (flush()), after the slot of
 * each was prefetched: each lookup is a cache miss in a table of millions of entries, and
 * made one after the other they were nearly half of the search's time. */
typedef struct {
    int64_t value;
    uint64_t hash;
    int check;
    uint8_t key[52];
} Tentative;

typedef struct {
    int64_t *out;
    uint8_t *prepared;
    int n;
    Tentative later[MAX_CANDIDATES];
    int n_later;
} Candidates;

static inline void add(Candidates *m, int64_t value, int prepared) {
    m->out[m->n] = -(value | m->n);
    m->prepared[m->n] = (uint8_t)prepared;
    m->n++;
}

/* Add a candidate after those found before it: played the long way (check 0), or
 * prepared if its child (key, hash) is fresh (check 1). */
static inline Tentative *later(Search *s, Candidates *m, int64_t value, int check) {
    Tentative *t = &m->later[m->n_later++];
    t->value = value;
    t->check = check;
    if (check) {
        t->hash = s->hash;
        memcpy(t->key, s->key, 52);
    }
    return t;
}

static inline void prefetch(const Search *s, const Tentative *t) {
    const Core *c = s->core;
    __builtin_prefetch(&c->table[key_hash(t->hash) & c->mask]);
}

static inline int noise_points(Search *s) {
    return s->noise ? (int)(mt_random(&s->twister) * s->noise) : 0;
}

/* Whether the child keyed `key`/`hash` is neither open nor lost; an open one lowers s->low. */
static int fresh(Search *s, const uint8_t *key, uint64_t hash) {
    Entry *e = table_get(s->core, hash, key);
    int32_t index = seen_get(s, e);
    if (index != ABSENT) {
        if (index >= 0 && index < s->low) s->low = index;
        return 0;
    }
    return !is_lost(e);
}

/* Add the candidates found since the last flush, in the order found. */
static void flush(Search *s, Candidates *m) {
    for (int x = 0; x < m->n_later; x++) {
        const Tentative *t = &m->later[x];
        if (!t->check)
            add(m, t->value, 0);
        else if (fresh(s, t->key, t->hash))
            add(m, t->value, 1);
    }
    m->n_later = 0;
}

/* solver_core.Search.prepare. */
static void prepare(Search *s, Candidates *m, int score, int card, int j, int i, int k) {
    int64_t value = (int64_t)score << SCORE_SHIFT | card << CARD_SHIFT | k << DEST_SHIFT;
    if (i) {
        int u = s->tab[j * STRIDE + i - 1];
        if (s->found[u / 13] == u % 13 && safe_at(s->core, s->found, u)) {
            later(s, m, value, 0);
            return;
        }
    }
    Tentative *t = later(s, m, value, 1);
    key_after(s, card, k, t->key, &t->hash);
    if (s->pending) key_waiting(s, 0, t->key, &t->hash);
    prefetch(s, t);
}

static int prepare_backs(Search *s, Candidates *m, const int64_t *backs, int n_backs) {
    for (int x = 0; x < n_backs; x++) {
        int64_t back = backs[x];
        if (s->free_take_backs) {
            add(m, back, 0);
            continue;
        }
        int card = (back >> CARD_SHIFT) & 63, k = (back >> DEST_SHIFT) & 7;
        uint64_t waiting = took_back(s->pending, card, top(s, k));
        uint8_t key[52];
        uint64_t hash = s->hash;
        memcpy(key, s->key, 52);
        key_after(s, card, k, key, &hash);
        key_waiting(s, waiting, key, &hash);
        if (fresh(s, key, hash)) {
            int r = block_can_end(s, card, k, waiting);
            if (r < 0) return -1;
            if (r) add(m, back, 1);
        }
    }
    return 0;
}

/* solver_core.Search.pending_moves, then prepared as solver_core.Search.moves does. */
static int pending_moves(Search *s, Candidates *m) {
    const Core *c = s->core;
    int64_t backs[64];
    int n_backs = 0;
    if (__builtin_popcountll(s->pending) == 1) {
        int card = __builtin_ctzll(s->pending), k = s->loc[card];
        for (int x = 0; x < c->nchildren[card]; x++) {
            int ch = c->children[card][x], j = s->loc[ch];
            if (j == FOUND || j == k) continue;
            int i = s->pos[ch];
            if (i >= s->down[j] && s->lens[j] - i <= GROUP_LIMIT) prepare(s, m, 0, ch, j, i, k);
        }
    }
    int empty = -1;
    for (int j = 0; j < 7; j++) {
        int n = s->lens[j];
        if (!n) {
            if (empty < 0) empty = j;
            continue;
        }
        int t = s->tab[j * STRIDE + n - 1];
        for (int x = 0; x < c->nchildren[t]; x++) {
            int ch = c->children[t][x];
            if (s->loc[ch] == FOUND && s->found[ch / 13] == ch % 13 + 1 &&
                !safe_at(c, s->found, ch))
                backs[n_backs++] = (int64_t)ch << CARD_SHIFT | j << DEST_SHIFT;
        }
    }
    if (empty >= 0)
        for (int x = 0; x < 4; x++) {
            int king = KINGS[x];
            if (s->loc[king] == FOUND && s->found[king / 13] == 13 && !safe_at(c, s->found, king))
                backs[n_backs++] = (int64_t)king << CARD_SHIFT | empty << DEST_SHIFT;
        }
    flush(s, m);
    return prepare_backs(s, m, backs, n_backs);
}

static int generate(Search *s, Candidates *m) {
    if (s->pending) return pending_moves(s, m);
    const Core *c = s->core;
    int64_t backs[64];
    int n_backs = 0, empty = -1;
    for (int k = 0; k < 7; k++) {
        int n = s->lens[k];
        if (!n) {
            if (empty < 0) empty = k;
            continue;
        }
        int t = s->tab[k * STRIDE + n - 1];
        if (s->found[t / 13] == t % 13) {
            int score = n == 1 ? 60 : s->down[k] == n - 1 ? 90 + s->down[k] : 40;
            score += noise_points(s);
            later(s, m, (int64_t)score << SCORE_SHIFT | t << CARD_SHIFT | FOUND << DEST_SHIFT, 0);
        }
        for (int x = 0; x < c->nchildren[t]; x++) {
            int ch = c->children[t][x], j = s->loc[ch];
            if (j == k) continue;
            if (j == FOUND) {
                if (s->found[ch / 13] == ch % 13 + 1 && !safe_at(c, s->found, ch)) {
                    int score = noise_points(s);
                    backs[n_backs++] =
                        (int64_t)score << SCORE_SHIFT | ch << CARD_SHIFT | k << DEST_SHIFT;
                }
                continue;
            }
            int i = s->pos[ch];
            if (i < s->down[j] || s->lens[j] - i > GROUP_LIMIT) continue;
            int score;
            int64_t value;
            if (i) {
                int u = s->tab[j * STRIDE + i - 1];
                score = s->down[j] == i ? 100 + i : c->fits[ch * 52 + u] ? 5 : 30;
                score += noise_points(s);
                value = (int64_t)score << SCORE_SHIFT | ch << CARD_SHIFT | k << DEST_SHIFT;
                if (s->found[u / 13] == u % 13 && safe_at(c, s->found, u)) {
                    later(s, m, value, 0); /* the uncovered card goes home: the long way */
                    continue;
                }
            } else {
                score = 70 + noise_points(s);
                value = (int64_t)score << SCORE_SHIFT | ch << CARD_SHIFT | k << DEST_SHIFT;
            }
            Tentative *tentative = later(s, m, value, 1);
            key_after(s, ch, k, tentative->key, &tentative->hash);
            prefetch(s, tentative);
        }
    }
    if (empty >= 0)
        for (int x = 0; x < 4; x++) {
            int king = KINGS[x], j = s->loc[king];
            if (j == FOUND) {
                if (s->found[king / 13] == 13 && !safe_at(c, s->found, king)) {
                    int score = 1 + noise_points(s);
                    backs[n_backs++] =
                        (int64_t)score << SCORE_SHIFT | king << CARD_SHIFT | empty << DEST_SHIFT;
                }
                continue;
            }
            int i = s->pos[king];
            if (i == 0 || i < s->down[j] || s->lens[j] - i > GROUP_LIMIT) continue;
            int score = (s->down[j] == i ? 100 + s->down[j] : 20) + noise_points(s);
            prepare(s, m, score, king, j, i, empty);
        }
    flush(s, m);
    if (n_backs && prepare_backs(s, m, backs, n_backs) < 0) return -1;
    /* Best first: ascending, as Python sorts the negative ints (all distinct). */
    for (int a = 1; a < m->n; a++) {
        int64_t v = m->out[a];
        int b = a - 1;
        while (b >= 0 && m->out[b] > v) {
            m->out[b + 1] = m->out[b];
            b--;
        }
        m->out[b + 1] = v;
    }
    return 0;
}

/* Generate the candidates of depth `d` (their Tarjan low in s->low, set by the caller). */
static int expand(Search *s, long long d) {
    size_t start = d ? s->cand_start[d - 1] + (size_t)s->cand_n[d - 1] : 0;
    if (grow((void **)&s->cands, &s->cands_cap, start + MAX_CANDIDATES, sizeof(int64_t)) < 0)
        return -1;
    if (grow((void **)&s->prepared, &s->prepared_cap, s->cands_cap, 1) < 0) return -1;
    Candidates m;
    m.out = s->cands + start;
    m.prepared = s->prepared + start;
    m.n = 0;
    m.n_later = 0;
    if (generate(s, &m) < 0) return -1;
    s->cand_start[d] = start;
    s->cand_n[d] = m.n;
    s->next[d] = 0;
    return 0;
}

static int scc_push(Search *s, Entry *e) {
    if (grow((void **)&s->scc, &s->scc_cap, s->scc_n + 1, sizeof(Entry *)) < 0) return -1;
    s->scc[s->scc_n++] = e;
    return 0;
}

static void mark_lost(Search *s, Entry *e) {
    seen_set(s, e, -1);
    e->gen |= LOST_BIT;
}

static PyObject *steps(const int32_t *a, size_t na, const int32_t *b, size_t nb) {
    PyObject *line = PyList_New((Py_ssize_t)(na + nb));
    if (!line) return NULL;
    for (size_t x = 0; x < na + nb; x++) {
        int32_t r = x < na ? a[x] : b[x - na];
        PyObject *step = Py_BuildValue("(ii)", r & 63, (r >> 6) & 7);
        if (!step) {
            Py_DECREF(line);
            return NULL;
        }
        PyList_SET_ITEM(line, (Py_ssize_t)x, step);
    }
    return line;
}

static int finish_won(Search *s) {
    PyObject *line = steps(s->prefix, s->prefix_n, s->log, s->log_n);
    if (!line) return -1;
    Py_XSETREF(s->line, line);
    s->finished = 1;
    return 1;
}

/* The first call of run(): enter the root. 1 when that already decides, 0 to go on, -1. */
static int start(Search *s) {
    s->started = 1;
    if (autoplay(s, -1) < 0) return -1;
    s->prefix = malloc((s->log_n + 1) * sizeof(int32_t));
    if (!s->prefix) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(s->prefix, s->log, s->log_n * sizeof(int32_t));
    s->prefix_n = s->log_n;
    s->log_n = 0;
    s->nodes = 1;
    if (s->on_found == 52) return finish_won(s);
    Entry *root = table_get(s->core, s->hash, s->key);
    if (is_lost(root) || dead(s)) {
        s->finished = 1;
        return 1;
    }
    root = table_put(s->core, s->hash, s->key);
    if (!root) return -1;
    seen_set(s, root, 0);
    if (scc_push(s, root) < 0 || grow_depths(s, 1) < 0) return -1;
    s->entry[0] = root;
    s->low = 0;
    if (expand(s, 0) < 0) return -1;
    s->lows[0] = s->low;
    s->depth = 0;
    return 0;
}

static void restore(Search *s, const Saved *saved) {
    memcpy(s->key, saved->key, 52);
    s->hash = saved->hash;
    s->pending = saved->pending;
}

/* solver_core.Search.run: 1 finished, 0 stopped at `limit`, -1 error (TableFull included). */
static int run(Search *s, long long limit) {
    if (s->finished) return 1;
    if (!s->started) {
        int r = start(s);
        if (r) return r;
    }
    long long depth = s->depth;
    Core *core = s->core;
    while (depth >= 0) {
        s->depth = depth; /* a growing table repoints the stacks down to here */
        if (s->nodes >= limit) return 0;
        int i = s->next[depth];
        if (i == s->cand_n[depth]) {
            int64_t low = s->lows[depth];
            Entry *here = s->entry[depth];
            if (seen_get(s, here) == low) {
                /* The root of a component: it and all above it on Tarjan's stack are lost. */
                Entry *e;
                do {
                    e = s->scc[--s->scc_n];
                    mark_lost(s, e);
                } while (e != here);
            }
            if (depth) {
                undo_to(s, s->marks[depth]);
                restore(s, &s->saved[depth]);
                if (low < s->lows[depth - 1]) s->lows[depth - 1] = low;
            }
            depth--;
            continue;
        }
        s->next[depth] = i + 1;
        int64_t move = -s->cands[s->cand_start[depth] + (size_t)i];
        int card = (move >> CARD_SHIFT) & 63, dest = (move >> DEST_SHIFT) & 7;
        int prepared = s->prepared[s->cand_start[depth] + (size_t)(move & 255)];
        Saved parent;
        memcpy(parent.key, s->key, 52);
        parent.hash = s->hash;
        parent.pending = s->pending;
        size_t start_log = s->log_n;
        long long entered = s->nodes + 1;
        if (entered >= INT32_MAX) {
            PyErr_SetString(TableFull, "too many positions for one search");
            return -1;
        }
        Entry *e;
        if (prepared) {
            if (apply(s, card, dest) < 0) return -1;
            int32_t record = s->log[s->log_n - 1];
            int take_back = ((record >> 9) & 7) == FOUND;
            set_pending(s, take_back ? took_back(s->pending, card, top_under(s, dest)) : 0);
            e = table_put(core, s->hash, s->key);
            if (!e) return -1;
            int32_t index = seen_get(s, e);
            if (index != ABSENT) {
                if (index >= 0 && index < s->lows[depth]) s->lows[depth] = index;
                undo_to(s, start_log);
                restore(s, &parent);
                continue;
            }
            seen_set(s, e, (int32_t)entered);
            s->nodes = entered;
            if (!take_back && (record >> 18) && dead(s)) {
                mark_lost(s, e);
                undo_to(s, start_log);
                restore(s, &parent);
                continue;
            }
        } else {
            if (apply(s, card, dest) < 0) return -1;
            int32_t record = s->log[start_log];
            int r = 0;
            if (((record >> 9) & 7) == FOUND) {
                if (s->free_take_backs)
                    r = autoplay(s, -1);
                else
                    set_pending(s, took_back(s->pending, card, top_under(s, dest)));
            } else if (parent.pending) {
                set_pending(s, 0);
                r = autoplay(s, -1);
            } else {
                r = autoplay(s, (record >> 9) & 7);
            }
            if (r < 0) return -1;
            e = table_get(core, s->hash, s->key);
            int32_t index;
            if (is_lost(e)) {
                index = -1;
            } else {
                if (!e) {
                    e = table_put(core, s->hash, s->key);
                    if (!e) return -1;
                }
                index = seen_get(s, e);
            }
            if (index != ABSENT) {
                if (index >= 0 && index < s->lows[depth]) s->lows[depth] = index;
                undo_to(s, start_log);
                restore(s, &parent);
                continue;
            }
            seen_set(s, e, (int32_t)entered);
            s->nodes = entered;
            if (s->on_found == 52) {
                s->depth = depth;
                return finish_won(s);
            }
            if (dead(s)) {
                mark_lost(s, e);
                undo_to(s, start_log);
                restore(s, &parent);
                continue;
            }
        }
        if (scc_push(s, e) < 0 || grow_depths(s, (size_t)depth + 2) < 0) return -1;
        depth++;
        s->marks[depth] = start_log;
        s->saved[depth] = parent;
        s->entry[depth] = e;
        s->low = entered;
        if (expand(s, depth) < 0) return -1;
        s->lows[depth] = s->low;
    }
    s->depth = depth;
    s->finished = 1;
    return 1;
}

/* -- the binding ----------------------------------------------------------------------------- */

static PyTypeObject CoreType;
static PyTypeObject SearchType;

static int read_ints(PyObject *seq, int *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected %d values", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* A tuple of 52 tuples of cards into lists of at most 8. */
static int read_lists(PyObject *seq, uint8_t lists[52][8], uint8_t *counts, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 52) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected 52 lists", what);
        return -1;
    }
    for (int c = 0; c < 52; c++) {
        int items[52];
        PyObject *one = PySequence_Fast_GET_ITEM(fast, c);
        Py_ssize_t n = PySequence_Size(one);
        if (n < 0 || n > 8 || read_ints(one, items, (int)n, what) < 0) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: too many cards", what);
            return -1;
        }
        counts[c] = (uint8_t)n;
        for (int x = 0; x < n; x++) lists[c][x] = (uint8_t)items[x];
    }
    Py_DECREF(fast);
    return 0;
}

static int Core_init(Core *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"parents", "children", "safe_need", "fits", "columns",
                            "down",    "foundations", "entries", NULL};
    PyObject *parents, *children, *safe_need, *columns, *down, *foundations;
    Py_buffer fits;
    unsigned long long entries;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOy*OOOK", names, &parents, &children,
                                     &safe_need, &fits, &columns, &down, &foundations, &entries))
        return -1;
    int ok = fits.len == 52 * 52;
    if (ok) memcpy(self->fits, fits.buf, 52 * 52);
    PyBuffer_Release(&fits);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "fits: expected 52 * 52 bytes");
        return -1;
    }
    if (read_lists(parents, self->parents, self->nparents, "parents") < 0 ||
        read_lists(children, self->children, self->nchildren, "children") < 0 ||
        read_ints(down, self->root_down, 7, "down") < 0 ||
        read_ints(foundations, self->root_found, 4, "foundations") < 0)
        return -1;
    PyObject *needs = PySequence_Fast(safe_need, "safe_need");
    if (!needs) return -1;
    for (int c = 0; c < 52 && PySequence_Fast_GET_SIZE(needs) == 52; c++) {
        PyObject *need = PySequence_Fast_GET_ITEM(needs, c);
        self->has_need[c] = need != Py_None;
        int v[4] = {0, 0, 0, 0};
        if (need != Py_None && read_ints(need, v, 4, "safe_need") < 0) {
            Py_DECREF(needs);
            return -1;
        }
        for (int s = 0; s < 4; s++) self->need[c][s] = (uint8_t)v[s];
    }
    Py_DECREF(needs);
    PyObject *cols = PySequence_Fast(columns, "columns");
    if (!cols) return -1;
    if (PySequence_Fast_GET_SIZE(cols) != 7) {
        Py_DECREF(cols);
        PyErr_SetString(PyExc_ValueError, "columns: expected 7");
        return -1;
    }
    for (int j = 0; j < 7; j++) {
        PyObject *col = PySequence_Fast_GET_ITEM(cols, j);
        int items[52];
        Py_ssize_t n = PySequence_Size(col);
        if (n < 0 || n > 52 || read_ints(col, items, (int)n, "column") < 0) {
            Py_DECREF(cols);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "column: too many cards");
            return -1;
        }
        self->root_len[j] = (int)n;
        for (int x = 0; x < n; x++) self->root_cols[j][x] = (uint8_t)items[x];
    }
    Py_DECREF(cols);
    /* The table starts small and doubles up to the bound: a short search touches little. */
    uint64_t size = 1024;
    while (size / 4 * 3 < entries && size < (1ULL << 16)) size *= 2;
    free(self->table);
    self->table = calloc(size, sizeof(Entry));
    self->mask = size - 1;
    self->count = 0;
    self->most = entries;
    self->limit = size / 4 * 3 < entries ? size / 4 * 3 : entries;
    self->gen = 0;
    long product = 1;
    for (int j = 0; j < 7; j++) {
        self->dead_radix[j] = (int)product;
        product *= self->root_down[j] + 1;
    }
    free(self->dead_memo);
    self->dead_memo = product <= (1L << 24) ? calloc((size_t)product, 1) : NULL;
    free(self->block);
    self->block = calloc(1024, sizeof(BlockEntry));
    self->block_mask = 1023;
    self->block_count = 0;
    if (!self->table || !self->block || (product <= (1L << 24) && !self->dead_memo)) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Core_dealloc(Core *self) {
    free(self->table);
    free(self->dead_memo);
    free(self->block);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Core_search(Core *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"noise", "seed", "free_take_backs", "main", NULL};
    int noise, free_take_backs, is_main;
    unsigned long seed;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ikpp", names, &noise, &seed,
                                     &free_take_backs, &is_main))
        return NULL;
    Search *s = PyObject_New(Search, &SearchType);
    if (!s) return NULL;
    /* Everything after the head starts zeroed. */
    memset((char *)s + sizeof(PyObject), 0, sizeof(Search) - sizeof(PyObject));
    Py_INCREF(self);
    s->core = self;
    s->main = is_main;
    if (!is_main) s->gen = ++self->gen;
    self->live[is_main ? 0 : 1] = s;
    s->noise = noise;
    s->free_take_backs = free_take_backs;
    mt_seed(&s->twister, (uint32_t)seed);
    s->depth = -1;
    for (int c = 0; c < 52; c++) {
        s->loc[c] = FOUND;
        s->key[c] = HOME;
    }
    for (int j = 0; j < 7; j++) {
        int n = self->root_len[j];
        for (int p = 0; p < n; p++) {
            int c = self->root_cols[j][p];
            s->tab[j * STRIDE + p] = (uint8_t)c;
            s->loc[c] = j;
            s->pos[c] = p;
            s->key[c] = (uint8_t)((p ? self->root_cols[j][p - 1] : BOTTOM) |
                                  (p < self->root_down[j] ? HIDDEN : 0));
        }
        s->lens[j] = n;
        s->down[j] = self->root_down[j];
    }
    for (int x = 0; x < 4; x++) {
        s->found[x] = self->root_found[x];
        s->on_found += self->root_found[x];
    }
    for (int c = 0; c < 52; c++) s->hash ^= ZOBRIST[c][s->key[c]];
    return (PyObject *)s;
}

static PyObject *Core_get_used(Core *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->count);
}

static PyObject *Core_get_capacity(Core *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->limit);
}

static PyMethodDef Core_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Core_search, METH_VARARGS | METH_KEYWORDS,
     "A new search from the root: the main one (main=True) or a probe."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Core_getset[] = {
    {"used", (getter)Core_get_used, NULL, "Entries of the table in use.", NULL},
    {"capacity", (getter)Core_get_capacity, NULL, "Entries the table may hold.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyObject *Search_run(Search *self, PyObject *arg) {
    long long limit = PyLong_AsLongLong(arg);
    if (limit == -1 && PyErr_Occurred()) return NULL;
    int r = run(self, limit);
    if (r < 0) return NULL;
    return PyBool_FromLong(r);
}

static void Search_dealloc(Search *self) {
    for (int k = 0; k < 2; k++)
        if (self->core && self->core->live[k] == self) self->core->live[k] = NULL;
    Py_XDECREF(self->line);
    Py_XDECREF(self->core);
    free(self->log);
    free(self->prefix);
    free(self->cand_start);
    free(self->cand_n);
    free(self->next);
    free(self->lows);
    free(self->entry);
    free(self->marks);
    free(self->saved);
    free(self->cands);
    free(self->prepared);
    free(self->scc);
    PyObject_Free(self);
}

static PyObject *Search_get_line(Search *self, void *closure) {
    (void)closure;
    PyObject *line = self->line ? self->line : Py_None;
    Py_INCREF(line);
    return line;
}

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)Search_run, METH_O,
     "Search on until `limit` positions were entered; True once finished."},
    {NULL, NULL, 0, NULL}};

static PyMemberDef Search_members[] = {
    {"nodes", T_LONGLONG, offsetof(Search, nodes), READONLY, "Positions entered."},
    {"started", T_BOOL, offsetof(Search, started), READONLY, "Whether run() was called."},
    {"finished", T_BOOL, offsetof(Search, finished), READONLY, "Whether it decided."},
    {NULL, 0, 0, 0, NULL}};

static PyGetSetDef Search_getset[] = {
    {"line", (getter)Search_get_line, NULL, "The winning line once finished, else None.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.engine._search.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The root position, the rule's tables and the table every search shares.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.engine._search.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One depth-first search (solver_core.Search in C).",
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_members = Search_members,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_search",
    .m_doc = "The solver's search in C (see solver_core.py).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__search(void) {
    uint64_t x = 0x9E3779B97F4A7C15ULL; /* splitmix64: fixed Zobrist keys */
    for (int c = 0; c < 52; c++)
        for (int b = 0; b < 256; b++) {
            uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            ZOBRIST[c][b] = z ^ (z >> 31);
        }
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    TableFull = PyErr_NewException("games.engine._search.TableFull", NULL, NULL);
    Py_INCREF(&CoreType);
    if (!TableFull || PyModule_AddObject(m, "TableFull", TableFull) < 0 ||
        PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(TableFull);
    return m;
}
