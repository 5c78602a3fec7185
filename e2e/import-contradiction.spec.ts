/**
 * A record whose events contradict each other is refused on import with one sentence naming the
 * event (its number and type), in the screen's language, and what is on screen stays as it was.
 */
import { parallelRecord } from '../scripts/records.mjs';
import { arrays, expect, importFile, open, test } from './fixtures';

type Events = ReturnType<typeof parallelRecord>['events'];

const indexOf = (events: Events, test: (e: Events[number]) => boolean) => events.findIndex(test);

/** Each contradiction: the file's name, how the good record is changed, the sentence expected. */
const cases: Array<[string, (events: Events) => void, (events: Events) => string]> = [
  [
    'tool-end.json',
    (events) =>
      events.splice(
        indexOf(events, (e) => e.type === 'tool_start' && e.id === 'task_1'),
        1,
      ),
    (events) =>
      `event ${indexOf(events, (e) => e.type === 'tool_end' && e.id === 'task_1') + 1} (tool_end): ` +
      'parent ends tool call task_1, which it never started',
  ],
  [
    'task-end.json',
    (events) =>
      events.splice(
        indexOf(events, (e) => e.type === 'task_start' && e.id === 'task_2'),
        1,
      ),
    (events) =>
      `event ${indexOf(events, (e) => e.type === 'task_end' && e.id === 'task_2') + 1} (task_end): ` +
      'task task_2 was never started',
  ],
  [
    'ghost.json',
    (events) => {
      const at = indexOf(events, (e) => e.type === 'model_start' && e.agent === 'subagent-1');
      events.splice(at, 0, { ...events[at], agent: 'subagent-7' });
    },
    (events) =>
      `event ${indexOf(events, (e) => e.agent === 'subagent-7') + 1} (model_start): subagent-7 was never spawned`,
  ],
  [
    'rewritten.json',
    (events) => {
      const first = events.find((e) => e.type === 'message' && e.agent === 'parent' && e.index === 1)!;
      events.push({ ...first, t: events[events.length - 1].t });
    },
    (events) => `event ${events.length} (message): message 1 of parent is rewritten after the run finished`,
  ],
];

test('a record that contradicts itself is refused with a sentence naming the event; the screen stays', async ({
  page,
}) => {
  // Six files picked or dropped, each checked and refused, then the screen compared.
  test.slow();
  await open(page);
  await importFile(page, 'good.json', JSON.stringify(parallelRecord(2)));
  const banner = page.getByRole('note');
  await expect(banner).toContainText('good.json');
  await expect(page.getByRole('region', { name: 'Subagent 2 messages' })).toBeVisible();
  const shown = await arrays(page);
  const slider = page.getByRole('slider', { name: 'Step' });
  const step = await slider.inputValue();
  const alert = page.getByRole('alert');

  let first = '';
  for (const [name, change, sentence] of cases) {
    const record = parallelRecord(2);
    change(record.events);
    first ||= JSON.stringify(record);
    await importFile(page, name, JSON.stringify(record));
    await expect(alert).toHaveText(`Cannot open ${name}: ${sentence(record.events)}.`);
    await expect(banner).toContainText('good.json');
    await expect(slider).toHaveValue(step);
    expect(await arrays(page)).toEqual(shown);
  }

  // In another language, the same refusal in that language (the file dropped on the page).
  await page.locator('header select').selectOption('ja');
  await page.evaluate((json) => {
    const data = new DataTransfer();
    data.items.add(new File([json], 'tool-end.json', { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, first);
  await expect(alert).toContainText('tool-end.json を開けません');
  await expect(alert).toContainText('parent がツール呼び出し task_1 を終えていますが、開始していません');
  await expect(banner).toContainText('good.json');
});
