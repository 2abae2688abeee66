// stich explore: the variation tree.  Every line played from the start is kept: a node is
// a move ({m}), maybe a comment ({c}), and its continuations ({k}), the first of them the
// main one.  Playing another card where a line goes on starts a variation beside it.
// The page shows one line at a time (state.line); the tree travels in the address.
"use strict";

const newTree = () => ({ k: [] });

function nodeAt(tree, path) {
  // the node reached by the moves of ``path`` (null if the tree has no such line)
  let node = tree;
  for (const move of path) {
    node = node.k.find((child) => child.m === move);
    if (!node) return null;
  }
  return node;
}

function addLine(tree, line) {
  // the line's moves as a path of the tree (new nodes go after the existing ones)
  let node = tree;
  for (const move of line) {
    let child = node.k.find((c) => c.m === move);
    if (!child) { child = { m: move, k: [] }; node.k.push(child); }
    node = child;
  }
  return node;
}

function mainContinuation(node) {
  // the moves after ``node`` along the first continuations
  const moves = [];
  while (node.k.length) { node = node.k[0]; moves.push(node.m); }
  return moves;
}

function promoteLine(tree, line) {
  // every branch on ``line`` becomes the first: the line is the main line
  let node = tree;
  for (const move of line) {
    const i = node.k.findIndex((c) => c.m === move);
    if (i < 0) return;
    const [child] = node.k.splice(i, 1);
    node.k.unshift(child);
    node = child;
  }
}

function deleteFrom(tree, path) {
  // remove the last move of ``path`` and everything after it
  const parent = nodeAt(tree, path.slice(0, -1));
  if (!parent) return;
  parent.k = parent.k.filter((c) => c.m !== path[path.length - 1]);
}

function treeLines(node, path = []) {
  // every line of the tree to its end, the main line first
  if (!node.k.length) return path.length ? [path] : [];
  return node.k.flatMap((child) => treeLines(child, path.concat([child.m])));
}

function treeComments(node, path = []) {
  // [path, comment] of every commented move
  return node.k.flatMap((child) => {
    const here = path.concat([child.m]);
    return (child.c ? [[here, child.c]] : []).concat(treeComments(child, here));
  });
}

function packTree(node) {
  // the tree as compact JSON: [move, comment or 0, ...continuations]
  return node.k.map((child) => [child.m, child.c || 0, ...packTree(child)]);
}

function unpackTree(packed, depth = 0) {
  // the inverse of packTree, checked: a bad address gives an error, not a broken page
  if (!Array.isArray(packed) || depth > 400) throw new Error("the variations are not a tree");
  return { k: packed.map((item) => {
    if (!Array.isArray(item) || typeof item[0] !== "string") throw new Error("the variations are not a tree");
    const node = unpackTree(item.slice(2), depth + 1);
    node.m = item[0];
    if (typeof item[1] === "string" && item[1]) node.c = item[1].slice(0, 2000);
    return node;
  }) };
}
