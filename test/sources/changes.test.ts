import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareContent, contentFingerprint } from '../../src/modules/sources/changes.js';

const same = (a: string[], b: string[]) => contentFingerprint(a) === contentFingerprint(b);
const BODY = 'Orders ship within two business days from our warehouse in Lyon.';

describe('change rule', () => {
  const notChanges: [string, string, string][] = [
    ['whitespace and case', 'Orders  ship within two business days from our warehouse in Lyon.', 'orders ship within two business days from our warehouse in lyon'],
    ['a "last updated" date', 'Last updated March 3, 2026', 'Last updated November 20, 2026'],
    ['an ISO stamp with time', 'Updated 2026-03-03T10:42:00Z', 'Updated 2026-11-20T08:00:00Z'],
    ['slashed and dotted dates', 'Posted on 2026/03/03', 'Posted on 2026.11.20'],
    ['unpadded ISO dates', 'Last modified 2026-3-4', 'Last modified 2026-11-20'],
    ['month and year', 'Last reviewed March, 2026', 'Last reviewed November 2026'],
    ['a date and time', 'Published May 3, 2026 at 10:42 am', 'Published June 1, 2026 at 9:00 pm'],
    ['relative times', 'Edited 2 hrs ago', 'Edited 5 mins ago'],
    ['ISO weeks', 'Updated 2026-W10', 'Updated 2026-W47'],
    ['the copyright year', '© 2025 Example Inc. All rights reserved.', '© 2026 Example Inc. All rights reserved.'],
  ];
  for (const [what, before, after] of notChanges) {
    it(`ignores ${what}`, () => assert.ok(same([BODY, before], [BODY, after])));
  }

  it('ignores reordered short paragraphs (navigation) but not reordered steps', () => {
    assert.ok(same([BODY, 'About us', 'Blog', 'Pricing'], ['Pricing', BODY, 'Blog', 'About us']));
    const steps = ['Open the settings page of your account first.', 'Then choose the security tab and press reset.'];
    assert.ok(!same(steps, [...steps].reverse()));
  });

  const changes: [string, string, string][] = [
    ['a number', 'Refunds are accepted within 30 days of purchase.', 'Refunds are accepted within 14 days of purchase.'],
    ['a sentence starting with "Published"', 'Published prices include VAT of 20 percent on orders.', 'Published prices include VAT of 25 percent on orders.'],
    ['"may" as a verb next to a number', 'Orders over 50 may be returned for free.', 'Orders over 80 may be returned for free.'],
    ['a version number', 'This feature requires version 2.1.10 of the app.', 'This feature requires version 2.1.12 of the app.'],
    ['opening hours', 'Support is available from 9:00 to 17:00 on weekdays.', 'Support is available from 10:00 to 16:00 on weekdays.'],
    ['a numbers-only table row', '1 | 10', '1 | 30'],
    ['a currency or unit symbol', 'The fee is 10% of the order total.', 'The fee is 10€ of the order total.'],
    ['a sign', 'Store the product at -5 degrees or colder.', 'Store the product at 5 degrees or colder.'],
  ];
  for (const [what, before, after] of changes) {
    it(`flags ${what}`, () => assert.ok(!same([BODY, before], [BODY, after])));
  }
});

describe('compareContent', () => {
  const A = ['Refunds are accepted within 30 days of purchase.'];
  const B = ['Refunds are accepted within 14 days of purchase.'];
  const C = ['Refunds are accepted within 7 days of purchase.'];
  const state = (paragraphs: string[], oldParagraphs: string[], changed: boolean, linked = true) => ({
    paragraphs,
    oldParagraphs,
    changed,
    fingerprint: contentFingerprint(paragraphs),
    linked,
  });

  it('keeps comparing against the content the knowledge was made from while flagged', () => {
    const afterB = compareContent(state(A, [], false), B, contentFingerprint(B));
    assert.deepEqual(afterB, { oldParagraphs: A, changed: true });
    const afterC = compareContent(state(B, afterB.oldParagraphs, true), C, contentFingerprint(C));
    assert.deepEqual(afterC, { oldParagraphs: A, changed: true });
    const backToA = compareContent(state(C, afterC.oldParagraphs, true), A, contentFingerprint(A));
    assert.deepEqual(backToA, { oldParagraphs: C, changed: false });
  });

  it('never flags an unlinked source, but keeps the previous paragraphs', () => {
    assert.deepEqual(compareContent(state(A, [], false, false), B, contentFingerprint(B)), { oldParagraphs: A, changed: false });
  });

  it('changes nothing for the first run or an unchanged page', () => {
    assert.deepEqual(compareContent({ ...state([], [], false), fingerprint: null }, A, contentFingerprint(A)), { oldParagraphs: [], changed: false });
    assert.deepEqual(compareContent(state(A, ['x'], false), A, contentFingerprint(A)), { oldParagraphs: ['x'], changed: false });
  });
});
