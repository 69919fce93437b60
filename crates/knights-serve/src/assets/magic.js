// Magic tours: the line sums of a whole tour numbered 1, 2, ... in its
// order, the same numbers as the library's `magic::sums` (and POST
// /api/check's `magic`), worked out here from the squares the page already
// has. A tour is semimagic when its rows all sum alike and its columns all
// sum alike, magic when on a square board both diagonals do too.

// The line sums of `path` ([r, c] squares, every square of the board once)
// on a rows x cols board without holes: { magic: 'no' | 'semimagic' |
// 'magic', rows, cols, diagonals (square boards only) }, or null when the
// path is not a whole tour of the board.
export function lineSums(rows, cols, path) {
  if (!path || path.length !== rows * cols || path.length === 0) return null;
  const rowSums = new Array(rows).fill(0), colSums = new Array(cols).fill(0);
  const diagonals = [0, 0];
  path.forEach(([r, c], i) => {
    rowSums[r] += i + 1;
    colSums[c] += i + 1;
    if (r === c) diagonals[0] += i + 1;
    if (r + c + 1 === cols) diagonals[1] += i + 1;
  });
  const alike = v => v.every(x => x === v[0]);
  const semimagic = alike(rowSums) && alike(colSums);
  const square = rows === cols;
  const magic = !semimagic ? 'no'
    : square && diagonals[0] === rowSums[0] && diagonals[1] === rowSums[0] ? 'magic' : 'semimagic';
  return { magic, rows: rowSums, cols: colSums, diagonals: square ? diagonals : null };
}

// One sentence for people about a semimagic or magic tour's sums, or ''
// for an ordinary tour (or none). `base` is the page's step base: the sums
// are of the numbering from 1, which the sentence says when the board is
// numbered from 0.
export function magicCaption(sums, base = 1) {
  if (!sums || sums.magic === 'no') return '';
  const from = base === 1 ? '' : ' (steps numbered from 1)';
  const [r, c] = [sums.rows[0], sums.cols[0]];
  const lines = r === c ? `every row and column sums to ${r}` : `every row sums to ${r} and every column to ${c}`;
  if (sums.magic === 'magic') return `Magic: ${lines}, and so do both diagonals${from}.`;
  const diagonals = sums.diagonals ? `; diagonals ${sums.diagonals[0]} and ${sums.diagonals[1]}` : '';
  return `Semimagic: ${lines}${diagonals}${from}.`;
}

// Shows the caption of the tour `path` on a plain rows x cols board in the
// element `id` (hidden when the tour is not semimagic, or there is no tour).
export function showMagic(id, rows, cols, path, base) {
  const box = document.getElementById(id);
  const text = magicCaption(lineSums(rows, cols, path), base);
  box.textContent = text;
  box.hidden = text === '';
}

// The line sums of any whole tour on a plain square board, for a teacher:
// each row's, each column's and the diagonals', numbered from 1, in the
// element `id` (a <details>, hidden when there is no such tour).
export function showSums(id, rows, cols, path) {
  const box = document.getElementById(id);
  const sums = rows === cols ? lineSums(rows, cols, path) : null;
  box.hidden = !sums;
  const text = box.querySelector('p');
  text.textContent = sums ? `Steps numbered from 1. Rows, top to bottom: ${sums.rows.join(', ')}. `
    + `Columns, left to right: ${sums.cols.join(', ')}. `
    + `Diagonals, from the top left and from the top right: ${sums.diagonals.join(' and ')}.` : '';
}
