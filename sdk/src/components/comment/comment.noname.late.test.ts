// A visitor who was in the name field when the writer's profile came, and left it empty, writes
// under the profile's random animal name, which is not written into the field they were in
// (rev-owner D9): it keeps its placeholder. In a browser page of its own (the profile's code comes
// once a page).
import { expect } from '@open-wc/testing';
import './comment.js';
import { nameEnteredInOneGo } from '../../test/comment-late.js';
import { itLate } from '../../test/request-control.js';

describe("a name field left empty while the writer's profile came", () => {
  itLate("posts under the profile's name, the field left empty", async () => {
    const { name, posted, animal } = await nameEnteredInOneGo('comment', () => {});
    expect(animal).to.not.equal('');
    expect(name, 'the name field').to.equal('');
    expect(posted, 'the post').to.equal(animal);
  });
});
