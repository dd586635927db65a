/* keps: the one source of randomness (CSPRNG on libsodium).
 *
 * Default: OS entropy, as ChaCha20 keystream blocks of 4 KiB each under a
 * fresh 256-bit key read through libsodium's randombytes. keps_rng_new_seeded()
 * gives a reproducible ChaCha20 keystream for tests and papers only: output
 * made with it is NOT private, and the CLI says so on stderr.
 * No other randomness exists in keps: never rand(), random() or drand48().
 * An rng is not thread-safe; give each thread its own (keps_rng_split). */
#ifndef KEPS_RNG_H
#define KEPS_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct keps_rng keps_rng;

keps_rng *keps_rng_new(void);                  /* OS entropy; NULL on failure */
keps_rng *keps_rng_new_seeded(uint64_t seed);  /* reproducible, not private */
/* A new independent generator: seeded parents give seeded (reproducible)
 * children, distinct per `stream`; unseeded parents give OS-entropy children. */
keps_rng *keps_rng_split(keps_rng *parent, uint64_t stream);
/* Streams of one run spread over several processes (keps-mpi): one process
 * makes the run's key with keps_rng_stream_key and sends it to the others;
 * each makes its own stream with keps_rng_from_key(key, its rank, seeded).
 * Stream s is the ChaCha20 keystream of BLAKE2b(key || s), so streams of
 * one key are distinct (two would coincide only if BLAKE2b collided) and
 * every process can be given any number of them.
 * keps_rng_stream_key: a seeded root gives its own key (stream s is then
 * keps_rng_split(root, s): reproducible, NOT private); an unseeded one a
 * fresh key from OS entropy (the streams are then a CSPRNG under a secret
 * key: keep the key as secret as the data). Returns 1 seeded, 0 not, -1 when
 * no randomness is available. keps_rng_from_key: seeded says what
 * keps_rng_stream_key returned (keps_rng_is_seeded of the stream). NULL on
 * failure. */
#define KEPS_RNG_KEY_BYTES 32
int keps_rng_stream_key(keps_rng *root, uint8_t key[KEPS_RNG_KEY_BYTES]);
keps_rng *keps_rng_from_key(const uint8_t key[KEPS_RNG_KEY_BYTES], uint64_t stream, int seeded);
void keps_rng_free(keps_rng *rng);
int keps_rng_is_seeded(const keps_rng *rng);

void keps_rng_bytes(keps_rng *rng, void *buf, size_t len);
uint64_t keps_rng_u64(keps_rng *rng);
/* Uniform integer in [0, n), n > 0, without modulo bias (rejection). */
uint64_t keps_rng_below(keps_rng *rng, uint64_t n);
/* Uniform double k/2^53 in [0, 1): 53 random bits. */
double keps_rng_uniform(keps_rng *rng);
/* Uniform double in (0, 1): never 0, for logarithms. */
double keps_rng_uniform_open(keps_rng *rng);
/* One fair random bit. */
int keps_rng_bit(keps_rng *rng);
/* Exact Bernoulli(p) for a double p: compares a lazily drawn uniform real
 * with p's binary expansion bit by bit, so Pr[1] == p exactly (2 bits on
 * average). p <= 0 gives 0, p >= 1 gives 1. */
int keps_rng_bernoulli(keps_rng *rng, double p);
/* Exact Bernoulli(num/den), den > 0: e.g. beta = 0.7 as 7/10. */
int keps_rng_bernoulli_rational(keps_rng *rng, uint64_t num, uint64_t den);
/* Fisher-Yates shuffle, unbiased (keps_rng_below for each swap). */
void keps_rng_shuffle_u32(keps_rng *rng, uint32_t *a, size_t n);
/* Identity permutation 0..n-1 shuffled; caller frees. NULL on OOM. */
uint32_t *keps_rng_permutation(keps_rng *rng, size_t n);

#ifdef __cplusplus
}
#endif
#endif
