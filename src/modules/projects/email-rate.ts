/**
 * The rate a project sends at, from its own `emailRatePerSecond` or else EMAIL_RATE_PER_SECOND (`rate`), bounded
 * by MAX_EMAIL_RATE_PER_SECOND (`max`, 0 when the deployment has none): 0 means the deployment's maximum, so it
 * is unlimited only without one. A rate stored before the maximum was lowered is held to it here. 0 = no limit.
 */
export function boundedEmailRate(rate: number, max: number): number {
  if (max <= 0) return rate;
  return rate <= 0 ? max : Math.min(rate, max);
}
