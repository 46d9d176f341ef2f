// A name a Korean IME commits into the name field the visitor was already in when the writer's
// profile came is the name: not the profile's random animal name with it glued on ("Owl방문자",
// rev-owner D9). In a browser page of its own (the profile's code comes once a page).
import { expect } from '@open-wc/testing';
import './comment.js';
import { nameEnteredInOneGo } from '../../test/comment-late.js';
import { itLate } from '../../test/request-control.js';

describe("a name entered while the writer's profile comes", () => {
  itLate('is the name an IME commits, nothing glued in front', async () => {
    const { name, posted } = await nameEnteredInOneGo('comment', (field) => {
      field.dispatchEvent(new CompositionEvent('compositionstart', { data: '' }));
      document.execCommand('insertText', false, '방문자');
      field.dispatchEvent(new CompositionEvent('compositionend', { data: '방문자' }));
    });
    expect(name, 'the name field').to.equal('방문자');
    expect(posted, 'the post').to.equal('방문자');
  });
});
