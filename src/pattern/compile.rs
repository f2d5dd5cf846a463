//! Syntax tree to program: Thompson's construction. [`MAX_STATES`] bounds the program so the
//! simulation's state sets are fixed bitsets. Counted repetitions are written out, each copy
//! the first one's states shifted, so the work stops at the limit.

use super::class::Class;
use super::error::{PatternError, PatternErrorKind};
use super::parse::{Assertion, Node};
use super::{MAX_DEPTH, MAX_STATES};

/// A state's index in the program.
pub(super) type Pc = u16;

/// One NFA state. Those without a target go on to the next state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Inst {
    /// Consume one character of `classes[id]`.
    Class(u16),
    /// Go on only where the assertion holds; consumes nothing.
    Assert(Assertion),
    /// Go on at both targets.
    Split(Pc, Pc),
    /// Go on at the target.
    Jump(Pc),
    /// The pattern has matched.
    Match,
}

/// A compiled pattern: the NFA, always ending with `Match`.
#[derive(Clone, Debug)]
pub(super) struct Program {
    pub(super) insts: Vec<Inst>,
    /// The sets `Inst::Class` refers to; each repetition copy shares its original's.
    pub(super) classes: Vec<Class>,
    /// Whether a match may start after the first character (false when every way to `Match`
    /// passes a `^`: then `Matcher::is_dead` can tell).
    pub(super) restartable: bool,
}

/// The program for `node`; `TooLarge` past [`MAX_STATES`], at the repetition being written.
pub(super) fn compile(node: &Node) -> Result<Program, PatternError> {
    let mut compiler = Compiler {
        insts: Vec::new(),
        classes: Vec::new(),
        blame: 0,
    };
    compiler.node(node, 0)?;
    compiler.emit(Inst::Match)?;
    let restartable = can_match_after_start(&compiler.insts, &compiler.classes);
    Ok(Program {
        insts: compiler.insts,
        classes: compiler.classes,
        restartable,
    })
}

/// The deepest tree: each group adds at most an alternation, a concatenation and a repetition.
const MAX_TREE_DEPTH: usize = 3 * MAX_DEPTH + 4;

struct Compiler {
    insts: Vec<Inst>,
    classes: Vec<Class>,
    /// Where the repetition being written out starts, for the `TooLarge` error.
    blame: usize,
}

impl Compiler {
    fn too_large(&self) -> PatternError {
        PatternError {
            kind: PatternErrorKind::TooLarge { limit: MAX_STATES },
            offset: self.blame,
        }
    }

    /// The state index `at` as a target.
    fn pc(&self, at: usize) -> Result<Pc, PatternError> {
        Pc::try_from(at).map_err(|_| self.too_large())
    }

    /// The index of the next state, as a target.
    fn next_pc(&self) -> Result<Pc, PatternError> {
        self.pc(self.insts.len())
    }

    /// Appends `inst`, returning its index.
    fn emit(&mut self, inst: Inst) -> Result<usize, PatternError> {
        let at = self.insts.len();
        if at >= MAX_STATES {
            return Err(self.too_large());
        }
        self.insts.push(inst);
        Ok(at)
    }

    /// Sets the placeholder at `at` now that its targets are known.
    fn patch(&mut self, at: usize, inst: Inst) {
        if let Some(slot) = self.insts.get_mut(at) {
            *slot = inst;
        }
    }

    fn node(&mut self, node: &Node, depth: usize) -> Result<(), PatternError> {
        if depth > MAX_TREE_DEPTH {
            let kind = PatternErrorKind::TooDeep { limit: MAX_DEPTH };
            return Err(PatternError { kind, offset: 0 });
        }
        match node {
            Node::Empty => {}
            Node::Class(class) => {
                let id = u16::try_from(self.classes.len()).map_err(|_| self.too_large())?;
                self.classes.push(class.clone());
                self.emit(Inst::Class(id))?;
            }
            Node::Assert(assertion) => {
                self.emit(Inst::Assert(*assertion))?;
            }
            Node::Concat(items) => {
                for item in items {
                    self.node(item, depth + 1)?;
                }
            }
            Node::Alternation(branches) => {
                let mut jumps = Vec::with_capacity(branches.len());
                let n_branches = branches.len();
                for (branch_idx, branch) in branches.iter().enumerate() {
                    if branch_idx + 1 == n_branches {
                        self.node(branch, depth + 1)?;
                        break;
                    }
                    let split = self.emit(Inst::Jump(0))?;
                    self.node(branch, depth + 1)?;
                    jumps.push(self.emit(Inst::Jump(0))?);
                    let (this, next) = (self.pc(split.saturating_add(1))?, self.next_pc()?);
                    self.patch(split, Inst::Split(this, next));
                }
                let end = self.next_pc()?;
                for jump in jumps {
                    self.patch(jump, Inst::Jump(end));
                }
            }
            Node::Repeat { node, min, max, at } => {
                let outer_blame = std::mem::replace(&mut self.blame, *at);
                self.repeat(node, *min, *max, depth)?;
                self.blame = outer_blame;
            }
        }
        Ok(())
    }

    /// `node` from `min` to `max` times (`None`: unbounded; never `Some(0)`).
    fn repeat(
        &mut self,
        node: &Node,
        min: u32,
        max: Option<u32>,
        depth: usize,
    ) -> Result<(), PatternError> {
        // The first copy; with min 0 behind a fork patched once the end is known.
        let skip = if min == 0 {
            Some(self.emit(Inst::Jump(0))?)
        } else {
            None
        };
        let start = self.insts.len();
        self.node(node, depth + 1)?;
        let end = self.insts.len();
        if start == end {
            self.insts.truncate(skip.unwrap_or(start));
            return Ok(());
        }
        let mut skips: Vec<usize> = skip.into_iter().collect();
        let mut last_copy = start;
        // The remaining required copies.
        for _ in 1..min {
            last_copy = self.insts.len();
            self.copy(start, end)?;
        }
        match max {
            None if min == 0 => {
                // x*: fork(x, end); x; jump back to the fork.
                let fork = self.pc(skip.unwrap_or(start))?;
                self.emit(Inst::Jump(fork))?;
            }
            None => {
                // x+ (after the other required copies): x; fork(back to x, end).
                let back = self.pc(last_copy)?;
                let on = self.pc(self.insts.len().saturating_add(1))?;
                self.emit(Inst::Split(back, on))?;
            }
            Some(max) => {
                // The optional copies, each behind a fork to the end.
                for _ in min.max(1)..max {
                    skips.push(self.emit(Inst::Jump(0))?);
                    self.copy(start, end)?;
                }
            }
        }
        let after = self.next_pc()?;
        for skip in skips {
            let this = self.pc(skip.saturating_add(1))?;
            self.patch(skip, Inst::Split(this, after));
        }
        Ok(())
    }

    /// Appends `insts[start..end]` with its targets (all in `start..=end`) moved along.
    fn copy(&mut self, start: usize, end: usize) -> Result<(), PatternError> {
        let moved_to = self.insts.len();
        let shift = |target: Pc| -> Result<Pc, PatternError> {
            usize::from(target)
                .checked_sub(start)
                .and_then(|offset| offset.checked_add(moved_to))
                .and_then(|target| Pc::try_from(target).ok())
                .ok_or_else(|| self.too_large())
        };
        let mut moved = Vec::with_capacity(end.saturating_sub(start));
        for inst in self.insts.get(start..end).unwrap_or(&[]) {
            moved.push(match *inst {
                Inst::Split(a, b) => Inst::Split(shift(a)?, shift(b)?),
                Inst::Jump(target) => Inst::Jump(shift(target)?),
                other => other,
            });
        }
        for inst in moved {
            self.emit(inst)?;
        }
        Ok(())
    }
}

/// Whether some way from the start to `Match` passes no `^` and no step on an empty set.
fn can_match_after_start(insts: &[Inst], classes: &[Class]) -> bool {
    let mut seen = vec![false; insts.len()];
    let mut stack: Vec<usize> = vec![0];
    while let Some(pc) = stack.pop() {
        match seen.get_mut(pc) {
            Some(seen) if !*seen => *seen = true,
            _ => continue,
        }
        match insts.get(pc) {
            Some(Inst::Match) => return true,
            Some(Inst::Class(id)) => {
                if classes.get(usize::from(*id)).is_some_and(|c| !c.is_empty()) {
                    stack.push(pc + 1);
                }
            }
            Some(Inst::Assert(Assertion::Start)) | None => {}
            Some(Inst::Assert(_)) => stack.push(pc + 1),
            Some(Inst::Split(a, b)) => stack.extend([usize::from(*a), usize::from(*b)]),
            Some(Inst::Jump(target)) => stack.push(usize::from(*target)),
        }
    }
    false
}
