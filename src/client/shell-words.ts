// An editor setting such as `code --wait` or `emacsclient -t -a ''` is a command with
// arguments, written as a shell would read it. This splits it into words the way a POSIX
// shell does (blanks between words; '…' literal; "…" with \ escaping $ ` " \ and newline;
// \ outside quotes escaping the next character) and does nothing else: no variables, no
// globs, no operators. Nothing runs through a shell. (shell-quote would also expand $VARS
// and parse operators, which is more than this needs and not what EDITOR means.)

export class ShellWordsError extends Error {}

export function splitWords(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  while (i < command.length) {
    const c = command[i]!;
    if (c === " " || c === "\t" || c === "\n") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      i++;
    } else if (c === "'") {
      const close = command.indexOf("'", i + 1);
      if (close === -1) throw new ShellWordsError(`unterminated ' in: ${command}`);
      word += command.slice(i + 1, close);
      inWord = true;
      i = close + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= command.length) throw new ShellWordsError(`unterminated " in: ${command}`);
        const d = command[i]!;
        if (d === '"') break;
        if (d === "\\" && i + 1 < command.length && '$`"\\\n'.includes(command[i + 1]!)) {
          if (command[i + 1] !== "\n") word += command[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      inWord = true;
      i++;
    } else if (c === "\\") {
      if (i + 1 < command.length && command[i + 1] !== "\n") {
        word += command[i + 1];
        inWord = true;
      }
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}
