//! The moves of an analysis board: a tree whose first child is the main line and whose other
//! children are variations, written as text the way PGN writes variations:
//! `d1-c1 d3-e3 (d3-d2 c1-c3) a4-a5`. A parenthesis holds an alternative to the move before
//! it. Nodes are numbered in the order their moves appear in that text (0: the start), so a
//! node is named in a link by one number.
//!
//! This file knows nothing of the rules: the moves are texts here, checked by the board.

/// The most moves a board's lines may hold together: a link stays a few kilobytes.
pub const MAX_MOVES: usize = 300;
/// The longest move text a link may carry (a move is at most 9 characters and a space).
pub const MAX_TEXT: usize = MAX_MOVES * 12;

/// One move of the tree (node 0 is the start, with no move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The move that leads here, as written (`d1-c1`); empty for the start.
    pub text: String,
    pub parent: usize,
    /// The main continuation first, then the variations in the order they were made.
    pub children: Vec<usize>,
    /// Moves from the start.
    pub depth: u32,
}

/// The tree of moves of an analysis board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveTree {
    nodes: Vec<Node>,
}

/// A move text that is not a tree of moves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    #[error(
        "the moves are {0} characters long; a board link holds at most {MAX_TEXT} (remove a variation)"
    )]
    TooLong(usize),
    #[error(
        "the board has more than {MAX_MOVES} moves in its lines, the most a link holds (remove a variation)"
    )]
    TooManyMoves,
    #[error("a variation \"(\" comes before any move it could replace")]
    VariationWithoutMove,
    #[error("a \")\" closes no variation")]
    UnopenedVariation,
    #[error("a variation \"(\" is never closed with \")\"")]
    UnclosedVariation,
    #[error("an empty variation \"()\"")]
    EmptyVariation,
}

impl Default for MoveTree {
    fn default() -> Self {
        MoveTree {
            nodes: vec![Node {
                text: String::new(),
                parent: 0,
                children: Vec::new(),
                depth: 0,
            }],
        }
    }
}

impl MoveTree {
    /// Reads the text form (`d1-c1 d3-e3 (d3-d2 c1-c3) a4-a5`).
    pub fn parse(text: &str) -> Result<MoveTree, TreeError> {
        if text.len() > MAX_TEXT {
            return Err(TreeError::TooLong(text.len()));
        }
        let mut tree = MoveTree::default();
        // The node the next move follows, and for each open variation where to go back to.
        let mut at = 0;
        let mut open: Vec<(usize, bool)> = Vec::new();
        let spaced = text.replace('(', " ( ").replace(')', " ) ");
        for token in spaced.split_whitespace() {
            match token {
                "(" => {
                    if at == 0 {
                        return Err(TreeError::VariationWithoutMove);
                    }
                    open.push((at, false));
                    at = tree.nodes[at].parent;
                }
                ")" => {
                    let (back, had_move) = open.pop().ok_or(TreeError::UnopenedVariation)?;
                    if !had_move {
                        return Err(TreeError::EmptyVariation);
                    }
                    at = back;
                }
                text => {
                    at = tree.add(at, text)?;
                    if let Some(last) = open.last_mut() {
                        last.1 = true;
                    }
                }
            }
        }
        if !open.is_empty() {
            return Err(TreeError::UnclosedVariation);
        }
        Ok(tree)
    }

    fn add(&mut self, parent: usize, text: &str) -> Result<usize, TreeError> {
        if self.nodes.len() > MAX_MOVES {
            return Err(TreeError::TooManyMoves);
        }
        let id = self.nodes.len();
        let depth = self.nodes[parent].depth + 1;
        self.nodes.push(Node {
            text: text.to_owned(),
            parent,
            children: Vec::new(),
            depth,
        });
        self.nodes[parent].children.push(id);
        Ok(id)
    }

    /// The text form, which [`MoveTree::parse`] reads back to the same tree with the same
    /// numbers.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write_after(0, &mut out);
        out
    }

    /// Writes the moves after `node`: its main continuation, the variations to that move each
    /// in parentheses, then the main line on.
    fn write_after(&self, node: usize, out: &mut String) {
        let Some((&main, others)) = self.nodes[node].children.split_first() else {
            return;
        };
        self.write_move(main, out);
        for &other in others {
            out.push_str(" (");
            self.write_move(other, out);
            self.write_after(other, out);
            out.push(')');
        }
        self.write_after(main, out);
    }

    fn write_move(&self, node: usize, out: &mut String) {
        if !out.is_empty() && !out.ends_with('(') {
            out.push(' ');
        }
        out.push_str(&self.nodes[node].text);
    }

    /// Plays `text` after `node`, as a new variation unless a child already is that move
    /// (`same` decides, so that `d1c1` follows an existing `d1-c1`); answers the node reached.
    /// The new node's number is the one it has in the text form.
    pub fn play(
        &mut self,
        node: usize,
        text: &str,
        same: impl Fn(&str) -> bool,
    ) -> Result<usize, TreeError> {
        if let Some(&existing) = self.nodes[node]
            .children
            .iter()
            .find(|&&c| same(&self.nodes[c].text))
        {
            return Ok(existing);
        }
        let added = self.add(node, text)?;
        // Renumber in text order, and find the new node by its way from the start.
        let path = self.path_to(added);
        *self = MoveTree::parse(&self.to_text())?;
        Ok(self.follow(&path))
    }

    /// The child indices that lead from the start to `node`.
    fn path_to(&self, mut node: usize) -> Vec<usize> {
        let mut path = Vec::new();
        while node != 0 {
            let parent = self.nodes[node].parent;
            let index = self.nodes[parent]
                .children
                .iter()
                .position(|&c| c == node)
                .unwrap_or(0);
            path.push(index);
            node = parent;
        }
        path.reverse();
        path
    }

    fn follow(&self, path: &[usize]) -> usize {
        path.iter().fold(0, |node, &index| {
            self.nodes[node]
                .children
                .get(index)
                .copied()
                .unwrap_or(node)
        })
    }

    pub fn node(&self, id: usize) -> Option<&Node> {
        self.nodes.get(id)
    }

    /// Every node, the start first, in text order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// How many moves the tree holds.
    pub fn moves(&self) -> usize {
        self.nodes.len() - 1
    }

    /// The nodes from the start's first move to `node`, in order.
    pub fn line_to(&self, node: usize) -> Vec<usize> {
        let mut line = Vec::new();
        let mut at = node;
        while at != 0 && at < self.nodes.len() {
            line.push(at);
            at = self.nodes[at].parent;
        }
        line.reverse();
        line
    }

    /// The end of the main line from `node` on (its first children, to the last).
    pub fn line_end(&self, mut node: usize) -> usize {
        while let Some(&next) = self.nodes.get(node).and_then(|n| n.children.first()) {
            node = next;
        }
        node
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_form_reads_back_to_the_same_tree_with_the_same_numbers() {
        let text = "d1-c1 d3-e3 (d3-d2 c1-c3 (a4-a5)) (d5-d6) a4-a5 b4-b5";
        let tree = MoveTree::parse(text).unwrap();
        assert_eq!(tree.to_text(), text);
        assert_eq!(tree.moves(), 8);
        // Numbers follow the text: d3-d2 is the third move written, a4-a5 the fifth.
        assert_eq!(tree.node(3).unwrap().text, "d3-d2");
        assert_eq!(tree.node(3).unwrap().parent, 1);
        assert_eq!(tree.node(5).unwrap().text, "a4-a5");
        assert_eq!(tree.node(5).unwrap().parent, 3);
        assert_eq!(tree.node(6).unwrap().text, "d5-d6");
        assert_eq!(tree.node(7).unwrap().parent, 2);
        assert_eq!(tree.line_to(4), vec![1, 3, 4]);
        assert_eq!(tree.line_end(0), 8);
        assert_eq!(tree.node(1).unwrap().children, vec![2, 3, 6]);
    }

    #[test]
    fn playing_a_new_move_from_an_earlier_ply_starts_a_variation() {
        let mut tree = MoveTree::parse("d1-c1 d3-e3 a4-a5").unwrap();
        fn same(t: &'static str) -> impl Fn(&str) -> bool {
            move |other| other.replace('-', "") == t.replace('-', "")
        }
        // The move already there is followed, not doubled.
        assert_eq!(tree.play(1, "d3e3", same("d3e3")).unwrap(), 2);
        let new = tree.play(1, "d3-d2", same("d3-d2")).unwrap();
        assert_eq!(tree.to_text(), "d1-c1 d3-e3 (d3-d2) a4-a5");
        assert_eq!(new, 3, "numbered as written");
        assert_eq!(tree.node(new).unwrap().text, "d3-d2");
        let on = tree.play(new, "c1-c3", same("c1-c3")).unwrap();
        assert_eq!(tree.to_text(), "d1-c1 d3-e3 (d3-d2 c1-c3) a4-a5");
        assert_eq!(tree.line_to(on), vec![1, 3, 4]);
        // A move at the end of a line extends it.
        let end = tree.line_end(0);
        tree.play(end, "e3-e2", same("e3-e2")).unwrap();
        assert_eq!(tree.to_text(), "d1-c1 d3-e3 (d3-d2 c1-c3) a4-a5 e3-e2");
    }

    #[test]
    fn broken_texts_say_what_is_wrong() {
        assert_eq!(
            MoveTree::parse("(d1-c1)"),
            Err(TreeError::VariationWithoutMove)
        );
        assert_eq!(
            MoveTree::parse("d1-c1 )"),
            Err(TreeError::UnopenedVariation)
        );
        assert_eq!(
            MoveTree::parse("d1-c1 (d1-d2"),
            Err(TreeError::UnclosedVariation)
        );
        assert_eq!(MoveTree::parse("d1-c1 ()"), Err(TreeError::EmptyVariation));
        let long = "a1-a2 ".repeat(MAX_MOVES + 1);
        assert_eq!(MoveTree::parse(&long), Err(TreeError::TooManyMoves));
        let longer = "a".repeat(MAX_TEXT + 1);
        assert!(matches!(
            MoveTree::parse(&longer),
            Err(TreeError::TooLong(_))
        ));
        // A full tree takes no more moves.
        let mut full = MoveTree::parse(&"a1-a2 ".repeat(MAX_MOVES)).unwrap();
        let end = full.line_end(0);
        assert_eq!(
            full.play(end, "a2-a3", |_| false),
            Err(TreeError::TooManyMoves)
        );
    }
}
