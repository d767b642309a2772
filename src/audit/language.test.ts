import { describe, expect, it } from 'vitest';
import { languageOf } from './language';

describe('languageOf', () => {
  it('tells English from another language in the Latin script by common English words, leaving code and options out', () => {
    expect(languageOf('when i log in as admin on the phone the navbar is hidden behind the url field')).toBe('english');
    expect(languageOf('Realize a tarefa, com todos os critérios de aceite sendo preenchidos e testes validados')).toBe('other');
    expect(languageOf('claude --permission-mode plan --allow-dangerously-skip-permissions')).toBeNull();
    expect(languageOf('ok')).toBeNull();
    expect(languageOf('この変更をコミットしてください')).toBe('cjk');
    // Terse English with no common word is not another language: nothing tells either way.
    expect(languageOf('GitHub organization: LAF-US ; Repository name: vault ; Visibility: private ; Description: notes')).toBeNull();
    expect(languageOf('Bitte prüfe die Tests und schreibe den Bericht für das Team neu')).toBe('other');
    expect(languageOf('Corrige el error del formulario y agrega una prueba para el caso vacío')).toBe('other');
    // Vietnamese typed without its marks (caochitam/aos): its common words, unmarked, are evidence too.
    expect(languageOf('ban dang hoat dong tren may nao va tai khoan nao')).toBe('other');
  });
  // Modelled on half A of bench/flag-judgements.json (session 52: aroldzmitry/claude-config's Russian requests,
  // marcinjucha/claude-meta's Polish ones), each retold in English by the summary.
  it('reads a text mostly in another script as another language, and knows more Latin-script languages', () => {
    expect(languageOf('нет, я все еще не понял в чем отличие от обычной команды')).toBe('other');
    expect(languageOf('теперь удали все комменты')).toBe('other');
    expect(languageOf('Przeglądnij proszę dokumentację, czy description tych agentów ma sens i czy jest zwięzły')).toBe('other');
    expect(languageOf('run `npm test` then fix the failing спек in src/app.ts please and commit it')).toBe('english');
  });
});
