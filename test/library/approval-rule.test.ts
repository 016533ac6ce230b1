import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ApprovalPolicy, approvalReason, type ControlFacts } from '../../src/actions/approval/rule.js';

const destructive: ApprovalPolicy = { presses: 'destructive' };
const control = (c: Partial<ControlFacts>): ControlFacts => ({ name: '', text: '', role: 'button', ...c });

describe('which presses ask a person first', () => {
  test('a control that deletes, spends, sends or publishes asks, in any case and in the corpus languages', () => {
    for (const [name, word] of [
      ['Delete', 'delete'],
      ['Remove from cart', 'remove'],
      ['ARCHIVE', 'archive'],
      ['Buy now', 'buy'],
      ['Place order', 'place order'],
      ['Check out', 'check out'],
      ['Send', 'send'],
      ['Transfer €20', 'transfer'],
      ['Publish post', 'publish'],
      ['Löschen', 'löschen'],
      ['Supprimer', 'supprimer'],
      ['Eliminar', 'eliminar'],
    ] as const)
      assert.equal(approvalReason(destructive, control({ name })), `"${name}" says ${word}`, name);
  });

  test("a container's text names the controls inside it: a press on its empty space does not ask", () => {
    const list =
      'TCK-7736 Printer on floor 3 jams Archive Delete TCK-7737 VPN drops every hour Archive Delete';
    for (const role of ['generic', 'row', 'listitem', 'cell', 'background'])
      assert.equal(approvalReason(destructive, control({ role, text: list })), null, role);
    // A clickable div labelled by its own short text, and a button whatever its text, still ask.
    assert.equal(
      approvalReason(destructive, control({ role: 'generic', text: 'Delete' })),
      '"Delete" says delete',
    );
    assert.equal(
      approvalReason(
        destructive,
        control({ role: 'button', text: 'Delete this ticket and all its replies now' }),
      ),
      '"Delete this ticket and all its replies now" says delete',
    );
  });

  test('a word inside another word, or an ordinary control, does not ask', () => {
    for (const name of [
      'Open',
      'Edit',
      'Orders',
      'Payment history',
      'Sender',
      'Undelete?',
      'Next page',
      'Archived',
    ])
      assert.equal(approvalReason(destructive, control({ name })), null, name);
    // A GET form (a search) is no more than a link.
    assert.equal(
      approvalReason(destructive, control({ name: 'Search', submits: { method: 'get', action: '/q' } })),
      null,
    );
  });

  test("a dialog's confirm button asks when the dialog names the act; a POST form's submit asks", () => {
    assert.match(
      approvalReason(destructive, control({ name: 'OK', overlay: 'Delete 3 tickets?' })) ?? '',
      /confirms the dialog "Delete 3 tickets\?"/,
    );
    assert.equal(approvalReason(destructive, control({ name: 'OK', overlay: 'Settings saved' })), null);
    assert.match(
      approvalReason(
        destructive,
        control({ name: 'Save', submits: { method: 'post', action: 'http://x/save' } }),
      ) ?? '',
      /POST form \(to http:\/\/x\/save\)/,
    );
  });

  test('--approve all asks for every press; --approve-when adds names', () => {
    assert.match(approvalReason({ presses: 'all' }, control({ name: 'Open' })) ?? '', /every press/);
    const when: ApprovalPolicy = { presses: 'destructive', when: /\bescalate\b/i };
    assert.match(approvalReason(when, control({ name: 'Escalate' })) ?? '', /--approve-when/);
    assert.equal(approvalReason(when, control({ name: 'Open' })), null);
  });
});
