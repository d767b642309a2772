// A Claude Code session whose compaction is followed by the file Claude Code reads again beside the summary (its
// post-compact file restoration), modelled on darthzen/float `entire/checkpoints/v1` d1/f00d108928/1 (2.1.175): the
// lost value the restored file holds is not counted lost; one no file brought back is.
import { claudeCodeRecords } from '../../src/test/claude-code-records';

export const RESTORED_FILE = 'Float/Immersive/SceneBuilder.swift';

export function restoredFilesSession(): string {
  const cwd = '/Users/dev/float';
  const r = claudeCodeRecords(cwd, '7a1d5c3e-2b4f-4e6a-8c9d-0e1f2a3b4c5d');
  const scene = 'import RealityKit\n\n/// Layers come from Float/Immersive/DepthLayers.swift.\nstruct SceneBuilder {\n  func build() {}\n}\n';
  r.user('Build the layered depth scene; the palette lives in Float/Theme/Palette.swift.');
  r.assistant([{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: `${cwd}/${RESTORED_FILE}` } }]);
  r.user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: scene }]);
  r.assistant([{ type: 'text', text: 'The scene builder reads its layers from one file.' }]);
  r.compaction('auto', 169_889, 'Summary:\n1. Primary Request: build the layered depth scene.');
  r.fileAttachment(`${cwd}/${RESTORED_FILE}`, scene);
  r.assistant([{ type: 'tool_use', id: 'toolu_2', name: 'Edit', input: { file_path: `${cwd}/Float/Immersive/DepthLayers.swift`, old_string: 'near', new_string: 'far' } }]);
  r.user([{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'The file has been updated successfully.' }]);
  r.assistant([{ type: 'tool_use', id: 'toolu_3', name: 'Edit', input: { file_path: `${cwd}/Float/Theme/Palette.swift`, old_string: 'blue', new_string: 'teal' } }]);
  r.user([{ type: 'tool_result', tool_use_id: 'toolu_3', content: 'The file has been updated successfully.' }]);
  return r.text();
}
