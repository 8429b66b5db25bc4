/*
 * A greedy Mille Bornes bot in C, written from docs/protocol.md alone.
 *
 *     cc -O2 -o greedy_bot greedy_bot.c
 *     python -m mille.match exec:./greedy_bot bsd
 *     python -m mille.match --players 4 exec:./greedy_bot bsd
 *     mille --computer exec:./greedy_bot
 *
 * It draws, then plays the best card it can (a remedy, a safety, a hazard,
 * the longest miles), else discards the least useful; it extends the trip
 * when the other car is far behind.  Equal moves are told apart with its
 * dice: on glibc, srandom(SEED) and random() are exactly the generator the
 * host hands a player in process, so its games are reproducible from the
 * match's seed.
 *
 * It speaks both protocols ("protocols":[1,2] in its hello): protocol 1 at
 * the two-seat table, protocol 2 at 3, 4 and 6 seats, where the game
 * message says "protocol":2 and the observation gives its own "hand" and
 * each side's tableau in "sides"; there it aims a hazard at the side its
 * dice choose among those legal, and always makes a coup fourré it is asked
 * for out of turn (the "reaction" phase).
 *
 * No JSON library: the host's messages have a fixed shape (every object's
 * keys in the order the protocol page gives), so a few strstr() calls find
 * what this bot reads.  A real bot would use a JSON parser.
 */

#define _GNU_SOURCE /* getline, srandom and random under -std=c99 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HAND_SIZE = 7, GASOLINE = 10, EXTRA_TANK = 15, MAX_MOVES = 16 };
static const int MILES[5] = {25, 50, 75, 100, 200};

struct move {
    char kind[16]; /* "draw", "play", "discard", "extend", "no_extension", "pass" */
    int slot;      /* play and discard only */
    int target;    /* protocol 2: the side a hazard goes to (-1: none named) */
};

/* This game: protocol 2 (its game message said so), my side, the table's sides. */
static int v2, my_side, sides = 2;

/* The integer after "key": at or after from (0 if absent). */
static long int_after(const char *from, const char *key)
{
    const char *at = from ? strstr(from, key) : NULL;
    return at ? strtol(at + strlen(key), NULL, 10) : 0;
}

/* The n-th (0-based) occurrence of key in from, or NULL. */
static const char *nth(const char *from, const char *key, int n)
{
    const char *at = from;
    for (int i = 0; at && i <= n; i++) {
        at = strstr(at, key);
        if (at && i < n)
            at += strlen(key);
    }
    return at;
}

/* The seven cards of the seat-th (0-based) "hand" at or after obs. */
static void read_hand(const char *obs, int seat, int hand[HAND_SIZE])
{
    const char *at = nth(obs, "\"hand\":[", seat);
    for (int i = 0; i < HAND_SIZE; i++) {
        hand[i] = -1;
        if (!at)
            continue;
        at += (i == 0) ? strlen("\"hand\":[") : 1;
        hand[i] = (int)strtol(at, (char **)&at, 10);
    }
}

/* The legal moves: {"kind":"...","slot":N} objects after "legal":[. */
static int read_legal(const char *line, struct move moves[MAX_MOVES])
{
    int n = 0;
    const char *at = strstr(line, "\"legal\":[");
    while (at && n < MAX_MOVES && (at = strstr(at, "\"kind\":\"")) != NULL) {
        at += strlen("\"kind\":\"");
        size_t len = strcspn(at, "\"");
        if (len >= sizeof moves[n].kind)
            len = sizeof moves[n].kind - 1;
        memcpy(moves[n].kind, at, len);
        moves[n].kind[len] = '\0';
        const char *end = strchr(at, '}');
        const char *slot = strstr(at, "\"slot\":");
        const char *target = strstr(at, "\"target\":");
        moves[n].slot = (slot && end && slot < end) ? (int)strtol(slot + 7, NULL, 10) : 0;
        moves[n].target = (target && end && target < end) ? (int)strtol(target + 9, NULL, 10) : -1;
        n++;
    }
    return n;
}

static int score(const struct move *m, int card)
{
    int distance = card >= 0 && card <= 4;
    if (strcmp(m->kind, "play") == 0) {
        if (distance)
            return 100 + MILES[card];
        if (card >= EXTRA_TANK)
            return 350;
        return card >= GASOLINE ? 400 : 320; /* remedies first: they get us moving */
    }
    /* A discard: keep what is scarce (remedies, long miles), drop the rest. */
    return -(distance ? MILES[card] : card >= GASOLINE ? 150 : 50);
}

static void answer(const struct move *m)
{
    if (m->target >= 0)
        printf("{\"type\":\"move\",\"move\":{\"kind\":\"play\",\"slot\":%d,\"target\":%d}}\n", m->slot, m->target);
    else if (strcmp(m->kind, "play") == 0 || strcmp(m->kind, "discard") == 0)
        printf("{\"type\":\"move\",\"move\":{\"kind\":\"%s\",\"slot\":%d}}\n", m->kind, m->slot);
    else
        printf("{\"type\":\"move\",\"move\":{\"kind\":\"%s\"}}\n", m->kind);
    fflush(stdout);
}

static void decide(const char *line)
{
    struct move moves[MAX_MOVES];
    int n = read_legal(line, moves);
    if (n == 0) { /* cannot happen: there is always a legal move */
        fprintf(stderr, "greedy_bot: no legal move in %.80s\n", line);
        exit(1);
    }
    const char *obs = strstr(line, "\"observation\":");
    int seat = (int)int_after(obs, "\"seat\":");
    if (strstr(line, "\"phase\":\"reaction\"")) {
        answer(&moves[0]); /* asked out of turn: the coup fourré (the other move is the pass) */
        return;
    }
    if (strstr(line, "\"phase\":\"extension\"")) {
        /* Extension?  Only when the other car is far behind (its mileage, in its tableau: in
           protocol 2 the next side's, in "sides"). */
        long theirs = v2 ? int_after(nth(strstr(obs, "\"sides\":"), "\"mileage\":", (my_side + 1) % sides),
                                     "\"mileage\":")
                         : int_after(nth(strstr(obs, "\"players\":"), "\"mileage\":", 1 - seat), "\"mileage\":");
        const char *want = theirs < 400 ? "extend" : "no_extension";
        for (int i = 0; i < n; i++)
            if (strcmp(moves[i].kind, want) == 0)
                answer(&moves[i]);
        return;
    }
    if (strcmp(moves[0].kind, "draw") == 0) {
        answer(&moves[0]);
        return;
    }
    int hand[HAND_SIZE];
    read_hand(v2 ? strstr(obs, "\"hand\":[") : strstr(obs, "\"players\":"), v2 ? 0 : seat, hand);
    int best = 0, ties = 0;
    for (int i = 0; i < n; i++) {
        int s = score(&moves[i], hand[moves[i].slot]);
        int b = score(&moves[best], hand[moves[best].slot]);
        if (i == 0 || s > b) {
            best = i;
            ties = 1;
        } else if (s == b && random() % ++ties == 0) {
            best = i; /* each of the equal moves as likely */
        }
    }
    answer(&moves[best]);
}

int main(void)
{
    char *line = NULL;
    size_t size = 0;
    while (getline(&line, &size, stdin) > 0) {
        if (strncmp(line, "{\"type\":\"mille\"", 15) == 0) {
            printf("{\"type\":\"hello\",\"protocol\":1,\"protocols\":[1,2],\"name\":\"greedy-c\"}\n");
            fflush(stdout);
        } else if (strncmp(line, "{\"type\":\"game\"", 14) == 0) {
            srandom((unsigned)int_after(line, "\"dice\":")); /* own dice: always a seed */
            v2 = strstr(line, "\"protocol\":2") != NULL; /* protocol 1's game message has no "protocol" */
            my_side = v2 ? (int)int_after(line, "\"side\":") : 0;
            sides = v2 ? (int)int_after(line, "\"sides\":") : 2;
        } else if (strncmp(line, "{\"type\":\"decide\"", 16) == 0) {
            decide(line);
        } else if (strncmp(line, "{\"type\":\"quit\"", 14) == 0) {
            break;
        } /* event, hand_over, game_over: this bot does not look */
    }
    free(line);
    return 0;
}
