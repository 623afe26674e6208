import { THRESHOLDS, levelOf, percent, type ReputationFigures } from '../../src/modules/reputation/figures';
import { verdictOf } from '../../src/modules/reputation/verdict';

/** The guardrails' judgement on its own (docs/security.md "Automatic suspension"). */
function figures(sent: number, bounced: number, complained: number, sentSinceReinstatement: number | null = null): ReputationFigures {
  const bounceRate = percent(bounced, sent);
  const complaintRate = percent(complained, sent);
  return {
    projectId: 'p',
    window: { days: 7, from: new Date(0), to: new Date(0) },
    sent,
    bounced,
    complained,
    bounceRate,
    complaintRate,
    levels: { bounce: levelOf(bounceRate, THRESHOLDS.bounceRate), complaint: levelOf(complaintRate, THRESHOLDS.complaintRate) },
    simulatedLeftOut: 0,
    sentSinceReinstatement,
  };
}

describe('verdictOf', () => {
  it('judges nothing below the minimum sent, however bad the rates', () => {
    expect(verdictOf(figures(499, 499, 499), 500)).toEqual({ action: 'none' });
  });

  it('leaves healthy rates alone', () => {
    expect(verdictOf(figures(1000, 49, 0), 500)).toEqual({ action: 'none' });
  });

  it('warns at the warning level, naming each rate above it', () => {
    expect(verdictOf(figures(1000, 50, 1), 500)).toEqual({
      action: 'warn',
      reason:
        'Bounce rate 5% over 7 days is above the warning level of 5%. Complaint rate 0.1% over 7 days is above the warning level of 0.1%.',
    });
  });

  it('suspends at the critical level, with the rate, its value in percent and the level', () => {
    expect(verdictOf(figures(800, 100, 0), 500)).toEqual({
      action: 'suspend',
      reason: 'Bounce rate 12.5% over 7 days is above the critical level of 10%',
    });
    expect(verdictOf(figures(700, 0, 4), 500)).toEqual({
      action: 'suspend',
      reason: 'Complaint rate 0.57% over 7 days is above the critical level of 0.5%',
    });
  });

  it('names the bounce rate when both are critical', () => {
    expect(verdictOf(figures(1000, 200, 10), 500)).toMatchObject({ action: 'suspend', reason: expect.stringMatching(/^Bounce rate 20%/) });
  });

  it('after a reinstatement, only warns until the minimum was sent again', () => {
    expect(verdictOf(figures(1000, 200, 0, 499), 500)).toEqual({
      action: 'warn',
      reason: 'Bounce rate 20% over 7 days is above the critical level of 10%.',
    });
    expect(verdictOf(figures(1000, 200, 0, 500), 500)).toMatchObject({ action: 'suspend' });
  });
});
