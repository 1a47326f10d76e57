//! Sets of JSON types, as the `type` keyword (and `enum`/`const` values) describe them.

use serde_json::{Map, Value};

/// A set of JSON types (`integer` is a part of `number`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Types(u8);

const NULL: u8 = 1;
const BOOLEAN: u8 = 2;
const OBJECT: u8 = 4;
const ARRAY: u8 = 8;
const STRING: u8 = 16;
const INTEGER: u8 = 32;
/// Numbers that are not integers.
const FRACTION: u8 = 64;
const ANY: u8 = 127;

impl Types {
    /// Whether every type of `self` is in `other`.
    pub(crate) fn subset_of(self, other: Types) -> bool {
        self.0 & !other.0 == 0
    }

    /// Whether the sets share a type.
    pub(crate) fn overlaps(self, other: Types) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether the numbers of the set are integers only.
    pub(crate) fn only_integers(self) -> bool {
        self.0 & FRACTION == 0 && self.0 & INTEGER != 0
    }

    /// One sample value of each type in `self` but not in `other`.
    pub(crate) fn samples_outside(self, other: Types) -> Vec<Value> {
        let missing = self.0 & !other.0;
        let mut out = Vec::new();
        for (bit, sample) in [
            (STRING, Value::String("x".to_owned())),
            (INTEGER, Value::from(0)),
            (FRACTION, Value::from(0.5)),
            (BOOLEAN, Value::Bool(false)),
            (NULL, Value::Null),
            (OBJECT, Value::Object(Map::new())),
            (ARRAY, Value::Array(Vec::new())),
        ] {
            if missing & bit != 0 {
                out.push(sample);
            }
        }
        out
    }

    /// Whether a value has one of the types.
    pub(crate) fn contains(self, value: &Value) -> bool {
        self.overlaps(Types::of_value(value))
    }

    /// The type of one value.
    pub(crate) fn of_value(value: &Value) -> Types {
        let bit = match value {
            Value::Null => NULL,
            Value::Bool(_) => BOOLEAN,
            Value::Object(_) => OBJECT,
            Value::Array(_) => ARRAY,
            Value::String(_) => STRING,
            Value::Number(n) => {
                if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) {
                    INTEGER
                } else {
                    FRACTION
                }
            }
        };
        Types(bit)
    }
}

impl std::fmt::Display for Types {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0 == ANY {
            return f.write_str("any type");
        }
        if self.0 == 0 {
            return f.write_str("nothing");
        }
        let mut names = Vec::new();
        for (bit, name) in [
            (NULL, "null"),
            (BOOLEAN, "boolean"),
            (OBJECT, "object"),
            (ARRAY, "array"),
            (STRING, "string"),
        ] {
            if self.0 & bit != 0 {
                names.push(name);
            }
        }
        match (self.0 & INTEGER != 0, self.0 & FRACTION != 0) {
            (true, true) => names.push("number"),
            (true, false) => names.push("integer"),
            (false, true) => names.push("non-integer number"),
            _ => {}
        }
        f.write_str(&names.join(" or "))
    }
}

impl Types {
    /// The types the `type` keyword allows (any type when it is absent).
    pub(crate) fn from_keyword(value: Option<&Value>) -> Types {
        let one = |name: &str| match name {
            "null" => NULL,
            "boolean" => BOOLEAN,
            "object" => OBJECT,
            "array" => ARRAY,
            "string" => STRING,
            "integer" => INTEGER,
            "number" => INTEGER | FRACTION,
            _ => 0,
        };
        match value {
            Some(Value::String(s)) => Types(one(s)),
            Some(Value::Array(list)) => Types(
                list.iter()
                    .filter_map(Value::as_str)
                    .map(one)
                    .fold(0, |a, b| a | b),
            ),
            _ => Types(ANY),
        }
    }
}

impl Types {
    /// No type at all (the `false` schema).
    pub(crate) const NOTHING: Types = Types(0);
    /// Objects only.
    pub(crate) const OBJECT: Types = Types(OBJECT);

    /// Types in both sets.
    pub(crate) fn intersect(self, other: Types) -> Types {
        Types(self.0 & other.0)
    }

    /// Types in either set.
    pub(crate) fn union(self, other: Types) -> Types {
        Types(self.0 | other.0)
    }
}
