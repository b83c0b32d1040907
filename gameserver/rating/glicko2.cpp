#include "rating/glicko2.h"

#include <algorithm>
#include <cmath>

namespace gs {

namespace {
constexpr double kScale = 173.7178;  // Glicko ↔ Glicko-2 scale factor
constexpr double kPi = 3.14159265358979323846;

double g(double phi) { return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (kPi * kPi)); }
double expected(double mu, double mu_j, double phi_j) { return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j))); }
}  // namespace

Rating glicko2_update(const Rating& player, const std::vector<RatedResult>& results, const Glicko2Params& p) {
  const double mu = (player.rating - 1500) / kScale;
  const double phi = player.deviation / kScale;
  const double sigma = player.volatility;
  Rating out = player;
  if (results.empty()) {
    out.deviation = std::min(p.max_deviation, kScale * std::sqrt(phi * phi + sigma * sigma));
    return out;
  }
  double v_inv = 0, delta_sum = 0;
  for (const auto& r : results) {
    const double mu_j = (r.opponent.rating - 1500) / kScale, phi_j = r.opponent.deviation / kScale;
    const double e = expected(mu, mu_j, phi_j), gj = g(phi_j);
    v_inv += gj * gj * e * (1 - e);
    delta_sum += gj * (r.score - e);
  }
  const double v = 1.0 / v_inv;
  const double delta = v * delta_sum;

  // New volatility: root of f by the Illinois (regula falsi) iteration of the paper's step 5.
  const double a = std::log(sigma * sigma), tau2 = p.tau * p.tau;
  auto f = [&](double x) {
    const double ex = std::exp(x), d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) - (x - a) / tau2;
  };
  double A = a, B;
  if (delta * delta > phi * phi + v) {
    B = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * p.tau) < 0) ++k;
    B = a - k * p.tau;
  }
  double fA = f(A), fB = f(B);
  for (int i = 0; i < 100 && std::fabs(B - A) > 1e-6; ++i) {
    const double C = A + (A - B) * fA / (fB - fA), fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  const double sigma_new = std::exp(A / 2);
  const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
  const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double mu_new = mu + phi_new * phi_new * delta_sum;
  out.rating = kScale * mu_new + 1500;
  out.deviation = std::clamp(kScale * phi_new, p.min_deviation, p.max_deviation);
  out.volatility = sigma_new;
  out.games = player.games + static_cast<int>(results.size());
  return out;
}

}  // namespace gs
