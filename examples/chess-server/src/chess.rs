//! The chess domain of the example server: PGN move parsing, a deliberately simple
//! game analysis, Elo rating bookkeeping, and a small catalogue of openings.
//!
//! The analysis is a heuristic over the move text, not a chess engine: it reads the
//! standard algebraic notation (SAN) of each move without replaying positions, scores
//! captures, checks and checkmate, and flags a move as a blunder when the opponent's
//! reply delivers checkmate or wins material with check. It is deterministic, which
//! is what an example server needs.

use std::collections::BTreeMap;

/// One parsed move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// Full-move number (1 for White's and Black's first moves).
    pub number: u32,
    /// Whether White played it.
    pub white: bool,
    /// The SAN text without annotation glyphs (`Qxf7#`).
    pub san: String,
}

impl Move {
    fn is_capture(&self) -> bool {
        self.san.contains('x')
    }
    fn is_check(&self) -> bool {
        self.san.ends_with('+')
    }
    fn is_mate(&self) -> bool {
        self.san.ends_with('#')
    }
}

/// Why a PGN could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgnError {
    /// No moves at all.
    Empty,
    /// A token that is neither a move number, a result, nor a SAN move.
    NotAMove(String),
    /// An unterminated comment, variation or tag.
    Unterminated(&'static str),
}

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PgnError::Empty => f.write_str("The PGN contains no moves."),
            PgnError::NotAMove(t) => {
                write!(f, "{t:?} is not a move in standard algebraic notation.")
            }
            PgnError::Unterminated(what) => write!(f, "The PGN has an unterminated {what}."),
        }
    }
}

/// Parses the movetext of a PGN game: tag pairs, comments, variations, NAGs, move
/// numbers and the result marker are skipped; every other token must be a SAN move.
pub fn parse_pgn(pgn: &str) -> Result<Vec<Move>, PgnError> {
    let text = strip_non_moves(pgn)?;
    let mut moves = Vec::new();
    let mut number = 1;
    let mut white = true;
    for token in text.split_whitespace() {
        // "12." or "12..." possibly glued to the move ("12.e4").
        let token = match token.find(|c: char| !c.is_ascii_digit()) {
            Some(i) if i > 0 && token[i..].starts_with('.') => {
                number = token[..i].parse().unwrap_or(number);
                white = !token[i..].starts_with("...");
                token[i..].trim_start_matches('.')
            }
            _ => token,
        };
        if token.is_empty()
            || matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
            || token.starts_with('$')
        {
            continue;
        }
        let san = token.trim_end_matches(['!', '?']);
        if !is_san(san) {
            return Err(PgnError::NotAMove(token.to_owned()));
        }
        moves.push(Move {
            number,
            white,
            san: san.to_owned(),
        });
        if !white {
            number += 1;
        }
        white = !white;
    }
    if moves.is_empty() {
        return Err(PgnError::Empty);
    }
    Ok(moves)
}

/// Removes `[tags]`, `{comments}`, `; line comments` and `(variations)`.
fn strip_non_moves(pgn: &str) -> Result<String, PgnError> {
    let mut out = String::with_capacity(pgn.len());
    let mut chars = pgn.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '[' => skip_until(&mut chars, ']', "tag pair")?,
            '{' => skip_until(&mut chars, '}', "comment")?,
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                let mut depth = 1;
                for c in chars.by_ref() {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                }
                if depth != 0 {
                    return Err(PgnError::Unterminated("variation"));
                }
            }
            _ => {
                out.push(c);
                continue;
            }
        }
        // A skipped construct separates tokens like whitespace.
        out.push(' ');
    }
    Ok(out)
}

fn skip_until(
    chars: &mut impl Iterator<Item = char>,
    end: char,
    what: &'static str,
) -> Result<(), PgnError> {
    chars
        .find(|c| *c == end)
        .map(|_| ())
        .ok_or(PgnError::Unterminated(what))
}

/// Whether `san` is standard algebraic notation: castling, or an optional piece,
/// optional disambiguation, optional capture, a target square, optional promotion,
/// and an optional check or mate sign.
pub fn is_san(san: &str) -> bool {
    let body = san.trim_end_matches(['+', '#']);
    if matches!(body, "O-O" | "O-O-O") {
        return true;
    }
    let mut chars: Vec<char> = body.chars().collect();
    // Promotion suffix "=Q".
    if chars.len() >= 2 && chars[chars.len() - 2] == '=' {
        if !"QRBN".contains(chars[chars.len() - 1]) {
            return false;
        }
        chars.truncate(chars.len() - 2);
    }
    if chars.len() < 2 {
        return false;
    }
    let (file, rank) = (chars[chars.len() - 2], chars[chars.len() - 1]);
    if !('a'..='h').contains(&file) || !('1'..='8').contains(&rank) {
        return false;
    }
    let mut prefix = &chars[..chars.len() - 2];
    if let Some(first) = prefix.first() {
        if "KQRBN".contains(*first) {
            prefix = &prefix[1..];
        }
    }
    if prefix.last() == Some(&'x') {
        prefix = &prefix[..prefix.len() - 1];
    }
    // Disambiguation: nothing, a file, a rank, or a file then a rank.
    let is_file = |c: &char| ('a'..='h').contains(c);
    let is_rank = |c: &char| ('1'..='8').contains(c);
    match prefix {
        [] => true,
        [c] => is_file(c) || is_rank(c),
        [f, r] => is_file(f) && is_rank(r),
        _ => false,
    }
}

/// A move the analysis considers a mistake.
#[derive(Debug, Clone, PartialEq)]
pub struct Blunder {
    /// Full-move number.
    pub move_number: u32,
    /// The move.
    pub mv: String,
    /// Centipawns lost.
    pub evaluation_loss: f64,
}

/// The analysis of a game.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// Centipawns from White's point of view.
    pub evaluation: f64,
    /// The strongest move of the analysed part of the game.
    pub best_move: String,
    /// Mistakes, in game order.
    pub blunders: Vec<Blunder>,
}

/// Centipawns for checkmate.
pub const MATE: f64 = 10_000.0;

/// Analyses the first `depth` half-moves (all when `None`).
///
/// Scores: checkmate ±10,000; each capture ±100; each check ±25. A move is a blunder
/// when the reply mates (loss 10,000) or captures with check (loss 100).
pub fn analyze(moves: &[Move], depth: Option<usize>) -> Analysis {
    let moves = &moves[..depth.unwrap_or(moves.len()).min(moves.len())];
    let score = |m: &Move| {
        if m.is_mate() {
            MATE
        } else {
            100.0 * f64::from(u8::from(m.is_capture())) + 25.0 * f64::from(u8::from(m.is_check()))
        }
    };
    let evaluation = moves
        .iter()
        .map(|m| if m.white { score(m) } else { -score(m) })
        .sum::<f64>()
        .clamp(-MATE, MATE);
    let best_move = moves
        .iter()
        .enumerate()
        .max_by(|(i, a), (j, b)| score(a).total_cmp(&score(b)).then(j.cmp(i)))
        .map(|(_, m)| m.san.clone())
        .unwrap_or_default();
    let blunders = moves
        .windows(2)
        .filter_map(|pair| {
            let loss = if pair[1].is_mate() {
                MATE
            } else if pair[1].is_capture() && pair[1].is_check() {
                100.0
            } else {
                return None;
            };
            Some(Blunder {
                move_number: pair[0].number,
                mv: pair[0].san.clone(),
                evaluation_loss: loss,
            })
        })
        .collect();
    Analysis {
        evaluation,
        best_move,
        blunders,
    }
}

/// Rating pools by time control.
pub const RATING_TYPES: [&str; 4] = ["classical", "rapid", "blitz", "bullet"];

/// The starting rating of a new player.
pub const INITIAL_RATING: i32 = 1500;

/// The rating pools by time control, fastest first: a game whose estimated duration in
/// minutes is under the limit belongs to the pool (`None`: every longer game).
pub const POOLS: [(&str, Option<u32>); 4] = [
    ("bullet", Some(3)),
    ("blitz", Some(10)),
    ("rapid", Some(60)),
    ("classical", None),
];

/// The rating pool a time control such as `3+2` belongs to (base minutes plus 40
/// moves of increment, the FIDE estimate): under 3 minutes bullet, under 10 blitz,
/// under 60 rapid, else classical ([`POOLS`]). Unparsable controls count as classical.
pub fn pool_for(time_control: Option<&str>) -> &'static str {
    let Some(tc) = time_control else {
        return "classical";
    };
    let mut parts = tc.split('+');
    let base: f64 = parts
        .next()
        .and_then(|b| b.trim().parse().ok())
        .unwrap_or(f64::MAX);
    let inc: f64 = parts
        .next()
        .and_then(|i| i.trim().parse().ok())
        .unwrap_or(0.0);
    let estimate = base + 40.0 * inc / 60.0;
    POOLS
        .iter()
        .find(|(_, under)| under.is_none_or(|limit| estimate < f64::from(limit)))
        .map_or("classical", |(name, _)| name)
}

/// A player's rating in one pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rating {
    /// Current Elo.
    pub elo: i32,
    /// Rated games played.
    pub games: u32,
    /// Elo after each game, oldest first.
    pub history: Vec<i32>,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            elo: INITIAL_RATING,
            games: 0,
            history: Vec::new(),
        }
    }
}

/// The in-memory rating store: player → pool → rating.
#[derive(Debug, Default)]
pub struct Ratings {
    players: BTreeMap<String, BTreeMap<&'static str, Rating>>,
}

/// K-factor: 32 for a player's first 30 games, 16 after.
fn k_factor(games: u32) -> f64 {
    if games < 30 {
        32.0
    } else {
        16.0
    }
}

impl Ratings {
    /// The rating of a player in a pool (a fresh 1500 for unknown players).
    pub fn get(&self, player: &str, pool: &'static str) -> Rating {
        self.players
            .get(player)
            .and_then(|p| p.get(pool))
            .cloned()
            .unwrap_or_default()
    }

    /// Records a game (`white_score` 1, 0.5 or 0) and returns the old and new ratings
    /// of White and Black.
    pub fn record(
        &mut self,
        white: &str,
        black: &str,
        white_score: f64,
        pool: &'static str,
    ) -> [(i32, i32); 2] {
        let (w, b) = (self.get(white, pool), self.get(black, pool));
        let expected_white = 1.0 / (1.0 + 10f64.powf(f64::from(b.elo - w.elo) / 400.0));
        let new_white = f64::from(w.elo) + k_factor(w.games) * (white_score - expected_white);
        let new_black =
            f64::from(b.elo) + k_factor(b.games) * ((1.0 - white_score) - (1.0 - expected_white));
        let (new_white, new_black) = (new_white.round() as i32, new_black.round() as i32);
        for (player, old, new) in [(white, &w, new_white), (black, &b, new_black)] {
            let mut updated = old.clone();
            updated.elo = new;
            updated.games += 1;
            updated.history.push(new);
            self.players
                .entry(player.to_owned())
                .or_default()
                .insert(pool, updated);
        }
        [(w.elo, new_white), (b.elo, new_black)]
    }
}

/// One opening of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code (`C60`).
    pub eco: &'static str,
    /// The usual English name.
    pub name: &'static str,
    /// The main line that defines it.
    pub moves: &'static str,
}

/// The server's catalogue of openings, in ECO order.
pub const OPENINGS: [Opening; 12] = [
    Opening {
        eco: "A10",
        name: "English Opening",
        moves: "1. c4",
    },
    Opening {
        eco: "B01",
        name: "Scandinavian Defence",
        moves: "1. e4 d5",
    },
    Opening {
        eco: "B10",
        name: "Caro-Kann Defence",
        moves: "1. e4 c6",
    },
    Opening {
        eco: "B20",
        name: "Sicilian Defence",
        moves: "1. e4 c5",
    },
    Opening {
        eco: "C00",
        name: "French Defence",
        moves: "1. e4 e6",
    },
    Opening {
        eco: "C42",
        name: "Petrov's Defence",
        moves: "1. e4 e5 2. Nf3 Nf6",
    },
    Opening {
        eco: "C50",
        name: "Italian Game",
        moves: "1. e4 e5 2. Nf3 Nc6 3. Bc4",
    },
    Opening {
        eco: "C60",
        name: "Ruy Lopez",
        moves: "1. e4 e5 2. Nf3 Nc6 3. Bb5",
    },
    Opening {
        eco: "D06",
        name: "Queen's Gambit",
        moves: "1. d4 d5 2. c4",
    },
    Opening {
        eco: "D80",
        name: "Grunfeld Defence",
        moves: "1. d4 Nf6 2. c4 g6 3. Nc3 d5",
    },
    Opening {
        eco: "E20",
        name: "Nimzo-Indian Defence",
        moves: "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4",
    },
    Opening {
        eco: "E60",
        name: "King's Indian Defence",
        moves: "1. d4 Nf6 2. c4 g6",
    },
];

/// The opening with this ECO code (case-insensitive).
pub fn opening(eco: &str) -> Option<Opening> {
    OPENINGS
        .iter()
        .copied()
        .find(|o| o.eco.eq_ignore_ascii_case(eco))
}

/// The candidates that start with `prefix` (case-insensitive), in their order.
pub fn complete<'a>(candidates: impl IntoIterator<Item = &'a str>, prefix: &str) -> Vec<String> {
    let prefix = prefix.to_lowercase();
    candidates
        .into_iter()
        .filter(|c| c.to_lowercase().starts_with(&prefix))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_and_completion() {
        assert_eq!(opening("c60").map(|o| o.name), Some("Ruy Lopez"));
        assert_eq!(opening("Z99"), None);
        let codes = OPENINGS.iter().map(|o| o.eco);
        assert_eq!(complete(codes, "c"), ["C00", "C42", "C50", "C60"]);
        assert_eq!(complete(["white", "black"], "B"), ["black"]);
        assert!(OPENINGS.windows(2).all(|w| w[0].eco < w[1].eco));
    }

    #[test]
    fn parses_movetext_with_tags_comments_and_variations() {
        let pgn = "[Event \"Casual\"]\n1. e4 {best by test} e5 2. Nf3 (2. f4 exf4) Nc6 3...a6?! $2 4. O-O 1-0";
        let moves = parse_pgn(pgn).unwrap();
        let sans: Vec<_> = moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "a6", "O-O"]);
        assert_eq!((moves[4].number, moves[4].white), (3, false));
        assert_eq!(parse_pgn("   "), Err(PgnError::Empty));
        assert_eq!(parse_pgn("1. e4 e9"), Err(PgnError::NotAMove("e9".into())));
        assert_eq!(
            parse_pgn("1. e4 {oops"),
            Err(PgnError::Unterminated("comment"))
        );
    }

    #[test]
    fn san_forms() {
        for ok in [
            "e4", "exd5", "Nbd7", "R1e2", "Qh4xe1", "e8=Q+", "O-O-O#", "Kxf7",
        ] {
            assert!(is_san(ok), "{ok}");
        }
        for bad in ["", "e", "i4", "Zf3", "e8=K", "Nbcd7"] {
            assert!(!is_san(bad), "{bad}");
        }
    }

    #[test]
    fn scholars_mate_analysis() {
        let moves = parse_pgn("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#").unwrap();
        let a = analyze(&moves, None);
        assert_eq!(a.evaluation, MATE);
        assert_eq!(a.best_move, "Qxf7#");
        assert_eq!(
            a.blunders,
            [Blunder {
                move_number: 3,
                mv: "Nf6".into(),
                evaluation_loss: MATE
            }]
        );
        // Only the first six half-moves: no mate yet.
        assert_eq!(analyze(&moves, Some(6)).evaluation, 0.0);
    }

    #[test]
    fn elo_updates_are_symmetric_for_equal_players() {
        let mut r = Ratings::default();
        let [(w0, w1), (b0, b1)] = r.record("a", "b", 1.0, "blitz");
        assert_eq!((w0, w1, b0, b1), (1500, 1516, 1500, 1484));
        assert_eq!(r.get("a", "blitz").games, 1);
        assert_eq!(r.get("a", "rapid"), Rating::default());
        assert_eq!(pool_for(Some("3+2")), "blitz");
        assert_eq!(pool_for(Some("1+0")), "bullet");
        assert_eq!(pool_for(Some("15+10")), "rapid");
        assert_eq!(pool_for(Some("90+30")), "classical");
        assert_eq!(pool_for(None), "classical");
        assert_eq!(pool_for(Some("1+0")), "bullet");
        assert_eq!(pool_for(Some("15+10")), "rapid");
        assert_eq!(pool_for(None), "classical");
    }
}
