#include "keps/rng.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "rng_internal.h"

#define RNG_BUF KEPS_RNG_BUF

static int sodium_ready(void)
{
    static int ok = 0;
    if (!ok)
        ok = sodium_init() >= 0;
    return ok;
}

void keps_rng_refill_(keps_rng *r)
{
    if (r->keyed) {
        memset(r->buf, 0, RNG_BUF);
        crypto_stream_chacha20_ietf_xor_ic(r->buf, r->buf, RNG_BUF, r->nonce, r->block, r->key);
        r->block += RNG_BUF / 64;
        if (r->block == 0) /* 2^32 blocks used: move to the next nonce */
            sodium_increment(r->nonce, sizeof r->nonce);
    } else {
        /* Each block is the ChaCha20 keystream of a fresh 256-bit key from
         * the OS (erased at once), as getrandom itself expands its state:
         * one 32-byte read per 4 KiB, where randombytes_buf(buf, 4096)
         * made sixteen 256-byte getrandom calls and words cost ~6x more
         * than the seeded stream's. A fresh key per block keeps what a fork
         * duplicates to the one buffer, as before. The nonce can stay 0:
         * no key is used twice. */
        static const uint8_t zero_nonce[crypto_stream_chacha20_ietf_NONCEBYTES];
        uint8_t key[crypto_stream_chacha20_ietf_KEYBYTES];
        randombytes_buf(key, sizeof key);
        crypto_stream_chacha20_ietf(r->buf, RNG_BUF, zero_nonce, key);
        sodium_memzero(key, sizeof key);
    }
    r->pos = 0;
}

static keps_rng *rng_alloc(void)
{
    if (!sodium_ready())
        return NULL;
    keps_rng *r = calloc(1, sizeof *r);
    if (r)
        r->pos = RNG_BUF;
    return r;
}

keps_rng *keps_rng_new(void)
{
    return rng_alloc();
}

keps_rng *keps_rng_new_seeded(uint64_t seed)
{
    keps_rng *r = rng_alloc();
    if (!r)
        return NULL;
    uint8_t s[8];
    for (int i = 0; i < 8; i++)
        s[i] = (uint8_t)(seed >> (8 * i));
    /* Key = BLAKE2b(seed): every seed gives an unrelated stream. */
    crypto_generichash(r->key, sizeof r->key, s, sizeof s, NULL, 0);
    r->seeded = r->keyed = 1;
    return r;
}

/* Stream `stream` under key: key' = BLAKE2b(key || stream as 8 bytes
 * little-endian), then the ChaCha20 keystream of key'. */
static keps_rng *derive(const uint8_t *key, uint64_t stream, int seeded)
{
    keps_rng *r = rng_alloc();
    if (!r)
        return NULL;
    uint8_t in[KEPS_RNG_KEY_BYTES + 8];
    memcpy(in, key, KEPS_RNG_KEY_BYTES);
    for (int i = 0; i < 8; i++)
        in[KEPS_RNG_KEY_BYTES + i] = (uint8_t)(stream >> (8 * i));
    crypto_generichash(r->key, sizeof r->key, in, sizeof in, NULL, 0);
    sodium_memzero(in, sizeof in);
    r->seeded = seeded;
    r->keyed = 1;
    return r;
}

keps_rng *keps_rng_split(keps_rng *parent, uint64_t stream)
{
    if (!parent->seeded)
        return keps_rng_new();
    return derive(parent->key, stream, 1);
}

int keps_rng_stream_key(keps_rng *root, uint8_t key[KEPS_RNG_KEY_BYTES])
{
    if (root->seeded)
        memcpy(key, root->key, KEPS_RNG_KEY_BYTES);
    else if (sodium_ready())
        randombytes_buf(key, KEPS_RNG_KEY_BYTES);
    else
        return -1;
    return root->seeded;
}

keps_rng *keps_rng_from_key(const uint8_t key[KEPS_RNG_KEY_BYTES], uint64_t stream, int seeded)
{
    return derive(key, stream, seeded != 0);
}

void keps_rng_free(keps_rng *rng)
{
    if (rng) {
        sodium_memzero(rng, sizeof *rng);
        free(rng);
    }
}

int keps_rng_is_seeded(const keps_rng *rng)
{
    return rng->seeded;
}

void keps_rng_bytes(keps_rng *r, void *out, size_t len)
{
    uint8_t *o = out;
    while (len) {
        if (r->pos == RNG_BUF)
            keps_rng_refill_(r);
        size_t n = RNG_BUF - r->pos;
        if (n > len)
            n = len;
        memcpy(o, r->buf + r->pos, n);
        r->pos += n;
        o += n;
        len -= n;
    }
}

uint64_t keps_rng_u64(keps_rng *r)
{
    return keps_rng_next_(r);
}

uint64_t keps_rng_below(keps_rng *r, uint64_t n)
{
    if (n <= 1)
        return 0;
    /* Reject the top (2^64 mod n) values so every residue is equally likely. */
    uint64_t threshold = (0 - n) % n;
    for (;;) {
        uint64_t v = keps_rng_u64(r);
        if (v >= threshold)
            return v % n;
    }
}

double keps_rng_uniform(keps_rng *r)
{
    return (double)(keps_rng_u64(r) >> 11) * 0x1.0p-53;
}

double keps_rng_uniform_open(keps_rng *r)
{
    for (;;) {
        uint64_t v = keps_rng_u64(r) >> 11;
        if (v)
            return (double)v * 0x1.0p-53;
    }
}

int keps_rng_bit(keps_rng *r)
{
    if (r->nbits == 0) {
        r->bits = keps_rng_u64(r);
        r->nbits = 64;
    }
    int b = (int)(r->bits & 1);
    r->bits >>= 1;
    r->nbits--;
    return b;
}

int keps_rng_bernoulli(keps_rng *r, double p)
{
    if (!(p > 0))
        return 0;
    if (p >= 1)
        return 1;
    /* U < p with U uniform on [0,1): walk both binary expansions. Doubling
     * p < 1 and subtracting 1 are exact in binary floating point. */
    for (;;) {
        p *= 2;
        int pb = p >= 1;
        if (pb)
            p -= 1;
        int ub = keps_rng_bit(r);
        if (ub != pb)
            return ub < pb;
        if (p == 0)
            return 0; /* remaining bits of p are all 0: U >= p */
    }
}

int keps_rng_bernoulli_rational(keps_rng *r, uint64_t num, uint64_t den)
{
    if (num >= den)
        return 1;
    return keps_rng_below(r, den) < num;
}

void keps_rng_shuffle_u32(keps_rng *r, uint32_t *a, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)keps_rng_below(r, i);
        uint32_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

uint32_t *keps_rng_permutation(keps_rng *r, size_t n)
{
    uint32_t *p = malloc((n ? n : 1) * sizeof *p);
    if (!p)
        return NULL;
    for (size_t i = 0; i < n; i++)
        p[i] = (uint32_t)i;
    keps_rng_shuffle_u32(r, p, n);
    return p;
}
