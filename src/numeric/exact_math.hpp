#pragma once
// ln and e^x that give the same bits on every platform: written with +, −, ×, ÷ and the exact
// exponent moves of frexp/ldexp only — the operations IEEE 754 rounds exactly — so the native
// build and the WebAssembly module agree to the bit (glibc's libm and the musl that Emscripten
// links may differ in the last bit). The serving simulation's random draws
// (src/serving/random.hpp) and the exact M/D/1 queue (src/numeric/md1.hpp) use them.

namespace prefill_trace::numeric {

/// ln(x) for finite x > 0: x = m·2^e with m in [√½, √2), ln m = 2·atanh((m−1)/(m+1)) by its
/// series to 2^-60, plus e·ln 2 in two parts. Within 2 ulp of the true value (tested).
double log(double x);
/// e^x for |x| ≤ 700: x = k·ln 2 + r, |r| ≤ ln2/2, e^r by its Taylor series to 2^-60, then
/// scaled by 2^k exactly. Within 2 ulp (tested).
double exp(double x);

}  // namespace prefill_trace::numeric
