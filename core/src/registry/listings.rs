//! Listing prints: for each registered tool that came as JSON text (a
//! `registerTools` or `syncProvider` element), a keyed 128-bit SipHash-1-3 of
//! that exact text. A re-list element with the print of a registered tool is
//! that tool unchanged (the same text reads as the same spec, and normalising
//! a spec depends only on it): it is neither read, checked, hashed nor
//! re-indexed, so a re-list costs what changed. The key is the host's
//! ([`Listings::set_key`], random per runtime in the package) so a catalog
//! cannot craft a text with another's print; prints are no part of any version.

use siphasher::sip128::{Hasher128, SipHasher13};
use std::collections::HashMap;
use std::hash::Hasher;

/// A listed text's print.
pub type Print = u128;

/// Prints of the registered tools' listing texts.
#[derive(Debug, Clone, Default)]
pub struct Listings {
    key: (u64, u64),
    /// Print → the canonical name of the tool registered from that text.
    tools: HashMap<Print, String>,
    /// Canonical name → the print it was registered from.
    prints: HashMap<String, Print>,
}

impl Listings {
    /// Key the prints (forgets every print taken with the old key).
    pub fn set_key(&mut self, key: [u8; 16]) {
        let (a, b) = key.split_at(8);
        let word = |s: &[u8]| s.iter().fold(0u64, |w, &b| w << 8 | u64::from(b));
        self.key = (word(a), word(b));
        self.tools.clear();
        self.prints.clear();
    }

    /// The print of a listing text.
    pub fn print(&self, text: &str) -> Print {
        let mut h = SipHasher13::new_with_keys(self.key.0, self.key.1);
        h.write(text.as_bytes());
        h.finish128().as_u128()
    }

    /// The print of a listing text read in a context (a catalog's provider
    /// and options), never equal to a print without one: JSON text holds no NUL.
    pub fn print_in(&self, context: &str, text: &str) -> Print {
        let mut h = SipHasher13::new_with_keys(self.key.0, self.key.1);
        h.write(context.as_bytes());
        h.write(&[0]);
        h.write(text.as_bytes());
        h.finish128().as_u128()
    }

    /// The tool registered from the text with `print`, if one is.
    pub fn tool(&self, print: Print) -> Option<&str> {
        self.tools.get(&print).map(String::as_str)
    }

    /// `name` is (now) the tool registered from the text with `print`.
    pub fn set(&mut self, name: &str, print: Print) {
        if let Some(old) = self.prints.insert(name.to_string(), print) {
            if old != print {
                self.tools.remove(&old);
            }
        }
        self.tools.insert(print, name.to_string());
    }

    /// `name` left the registry or was replaced by a spec with no text.
    pub fn forget(&mut self, name: &str) {
        if let Some(old) = self.prints.remove(name) {
            self.tools.remove(&old);
        }
    }
}
