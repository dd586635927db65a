/* Private: the rng's state and an inlinable 64-bit read, for samplers whose
 * cost is dominated by random words (noise.c). A call into rng.c per word
 * was a sixth of a Laplace sample. */
#ifndef KEPS_RNG_INTERNAL_H
#define KEPS_RNG_INTERNAL_H

#include <sodium.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "keps/rng.h"

#define KEPS_RNG_BUF 4096

struct keps_rng {
    size_t pos;             /* next unread byte of buf */
    int seeded;             /* reproducible: from keps_rng_new_seeded (not private) */
    int keyed;              /* buf is the ChaCha20 keystream of key (seeded, or a
                               stream of keps_rng_from_key under a secret key) */
    uint32_t block;         /* ChaCha20 block counter for the seeded stream */
    uint64_t bits;          /* cached bits for keps_rng_bit */
    int nbits;
    uint8_t key[crypto_stream_chacha20_ietf_KEYBYTES];
    uint8_t nonce[crypto_stream_chacha20_ietf_NONCEBYTES];
    uint8_t buf[KEPS_RNG_BUF];
};

/* Refills buf from the keystream (or the OS) and rewinds pos. */
KEPS_INTERNAL void keps_rng_refill_(keps_rng *r);

/* The next 8 bytes of the stream as a little-endian word: the same value
 * keps_rng_u64 returns. */
static inline uint64_t keps_rng_next_(keps_rng *r)
{
    if (__builtin_expect(KEPS_RNG_BUF - r->pos < 8, 0))
        keps_rng_refill_(r);
    uint64_t v;
    memcpy(&v, r->buf + r->pos, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    r->pos += 8;
    return v;
}

#endif
