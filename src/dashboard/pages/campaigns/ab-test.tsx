import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { ConfirmButton } from '../../ui/actions';
import { ErrorNote, Loading } from '../../ui/feedback';
import { count, dateTime, percentOf100 } from '../../ui/format';
import { Table, type Column } from '../../ui/lists';
import { useAction, useLoad } from '../../ui/use-load';
import type { Campaign } from './status';

type Test = Answer<'/campaigns/{id}/variants', 'get'>;
type Variant = Test['variants'][number];

const MEASURE = { OPENS: 'opens', CLICKS: 'clicks', MANUAL: 'a choice by hand' } as const;

function decision(test: Test, campaign: Campaign): string {
  if (test.winner !== null) {
    const how = test.decidedBy === 'MANUAL' ? 'chosen by hand' : `by ${MEASURE[test.decidedBy ?? 'OPENS']}`;
    return `Variant ${test.variants[test.winner]?.name ?? '?'} won (${how}, ${dateTime(test.decidedAt)}) and goes to the rest.`;
  }
  if (campaign.status !== 'SENDING')
    return `The test share is ${test.testPercent}%; the winner is decided by ${MEASURE[test.winnerBy ?? 'OPENS']}.`;
  return test.winnerBy === 'MANUAL'
    ? 'The variants are out to the test share; choose the winner below.'
    : `The variants are out to the test share; the one with the most ${MEASURE[test.winnerBy ?? 'OPENS']} after ${test.waitMinutes} minutes goes to the rest, unless you choose first.`;
}

/** An A/B test's variants, their figures and the winner (`GET /campaigns/{id}/variants`); a winner can be chosen by hand while sending. */
export function AbTest({ campaign, version, onDone }: { campaign: Campaign; version: string; onDone: (message: string) => Promise<void> }) {
  const path = { id: campaign.id };
  const test = useLoad(() => call(api.GET('/campaigns/{id}/variants', { params: { path } })), [campaign.id, version]);
  const choose = useAction(async (variant: number) => {
    const answer = await call(api.POST('/campaigns/{id}/winner', { params: { path }, body: { variant } }));
    await onDone(answer.message);
  });
  if (test.error) return <ErrorNote error={test.error} />;
  if (!test.data) return <Loading what="Loading the A/B test" />;
  const data = test.data;
  const open = campaign.status === 'SENDING' && data.winner === null;
  const columns: Column<Variant>[] = [
    { title: 'Variant', cell: (v) => (data.winner === v.variant ? `${v.name} (winner)` : v.name) },
    { title: 'Subject', cell: (v) => v.subject },
    { title: 'Sender', cell: (v) => (v.fromName ? `${v.fromName} <${v.from}>` : v.from), wide: true },
    { title: 'Test recipients', cell: (v) => v.recipients.toLocaleString() },
    { title: 'Sent', cell: (v) => v.sentCount.toLocaleString() },
    { title: 'Opened', cell: (v) => `${count(v.openedCount)} (${percentOf100(v.openRate)})` },
    { title: 'Clicked', cell: (v) => `${count(v.clickedCount)} (${percentOf100(v.clickRate)})` },
  ];
  if (open) {
    columns.push({
      title: 'Choose',
      cell: (v) => (
        <ConfirmButton
          label={`Choose ${v.name}`}
          confirm={`Send variant ${v.name} to the rest now?`}
          onConfirm={() => choose.run(v.variant)}
          disabled={choose.pending}
        />
      ),
    });
  }
  return (
    <>
      <p data-testid="ab-decision">{decision(data, campaign)}</p>
      <Table caption="Variants" columns={columns} rows={data.variants} rowKey={(v) => String(v.variant)} />
      <ErrorNote error={choose.error} />
    </>
  );
}
