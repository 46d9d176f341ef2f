// The Q&A element's composer is the comment element's: a name autofilled or pasted (inserted at
// the caret in one go) into the name field the visitor was already in when the writer's profile
// came is the name, not the profile's random animal name with it glued on (rev-owner D9). In a
// browser page of its own (the profile's code comes once a page).
import { expect } from '@open-wc/testing';
import './qna.js';
import { nameEnteredInOneGo } from '../../test/comment-late.js';
import { itLate } from '../../test/request-control.js';

describe("a Q&A name entered while the writer's profile comes", () => {
  itLate('is the name pasted, nothing glued in front', async () => {
    const { name, posted } = await nameEnteredInOneGo('qna', () =>
      document.execCommand('insertText', false, 'Visitor Kim'),
    );
    expect(name, 'the name field').to.equal('Visitor Kim');
    expect(posted, 'the post').to.equal('Visitor Kim');
  });
});
