import { describe, expect, it } from 'vitest';
import { conversationFolderOf, conversationKeysOf, eventFileNumber, isOpenHandsConversationFile } from './openhands-sdk-files';

describe('openhands-sdk-files', () => {
  it('knows a conversation file by its name, and its event number', () => {
    expect(isOpenHandsConversationFile('event-00012-5df490d1-98e8-4dea-9ae7-7f36c59f8ed5.json')).toBe(true);
    expect(isOpenHandsConversationFile('conv/base_state.json')).toBe(true);
    expect(isOpenHandsConversationFile('rollout.jsonl')).toBe(false);
    expect(isOpenHandsConversationFile('my-event-log.json')).toBe(false);
    expect(eventFileNumber('conv/events/event-00012-x.json')).toBe(12);
    expect(eventFileNumber('base_state.json')).toBeNull();
  });

  it('reads the conversation folder from a path, and counts the conversations of a drop', () => {
    expect(conversationFolderOf('runs/cd9456/events/event-00000-x.json')).toBe('cd9456');
    expect(conversationFolderOf('runs/cd9456/base_state.json')).toBe('cd9456');
    expect(conversationFolderOf('event-00000-x.json')).toBeNull();
    expect(conversationFolderOf('base_state.json')).toBeNull();
    expect(conversationKeysOf(['a-b/base_state.json', 'a-b/events/event-00001-y.json', 'event-00002-z.json']).size).toBe(1);
    expect(conversationKeysOf(['A/base_state.json', 'b/base_state.json']).size).toBe(2);
  });
});
