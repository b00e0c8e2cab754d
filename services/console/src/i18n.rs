//! The console's languages: Project Fluent catalogs, English and Spanish built in
//! (`locales/en.ftl`, `locales/es.ftl`), more from files given at start (one file a language,
//! named by its language tag, e.g. `fr.ftl`; a built-in language's file replaces it). A message
//! missing from a language falls back to English; one missing from English shows its id, and a
//! test keeps the built-in catalogs complete.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::sync::OnceLock;
use unic_langid::LanguageIdentifier;

const BUILT_IN: &[(&str, &str)] = &[
    ("en", include_str!("../locales/en.ftl")),
    ("es", include_str!("../locales/es.ftl")),
];

/// One language: its tag, its own name for itself, its messages.
struct Language {
    tag: String,
    bundle: FluentBundle<FluentResource>,
}

/// Every language of the console; English first (the fallback).
pub struct Catalogs {
    languages: Vec<Language>,
}

static CATALOGS: OnceLock<Catalogs> = OnceLock::new();

fn bundle(tag: &str, text: &str) -> Result<FluentBundle<FluentResource>, String> {
    let id: LanguageIdentifier = tag
        .parse()
        .map_err(|e| format!("{tag:?} is not a language tag: {e}"))?;
    let resource = FluentResource::try_new(text.to_string()).map_err(|(_, errors)| {
        format!(
            "the {tag} catalog: {}",
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        )
    })?;
    let mut b = FluentBundle::new_concurrent(vec![id]);
    // Placeables go into HTML, which has its own direction handling.
    b.set_use_isolating(false);
    b.add_resource(resource)
        .map_err(|e| format!("the {tag} catalog: {e:?}"))?;
    Ok(b)
}

impl Catalogs {
    /// The built-in languages, and `extra` (tag, catalog text) added or replacing.
    pub fn new(extra: &[(String, String)]) -> Result<Catalogs, String> {
        let mut languages = Vec::new();
        for (tag, text) in BUILT_IN {
            languages.push(Language {
                tag: tag.to_string(),
                bundle: bundle(tag, text)?,
            });
        }
        for (tag, text) in extra {
            let l = Language {
                tag: tag.clone(),
                bundle: bundle(tag, text)?,
            };
            match languages.iter().position(|x| x.tag == *tag) {
                Some(i) => languages[i] = l,
                None => languages.push(l),
            }
        }
        Ok(Catalogs { languages })
    }

    /// Makes these the console's catalogs (the first call wins: one set per process).
    pub fn install(self) {
        let _ = CATALOGS.set(self);
    }
}

fn catalogs() -> &'static Catalogs {
    CATALOGS.get_or_init(|| Catalogs::new(&[]).expect("the built-in catalogs"))
}

/// A language of the console, by its place in the catalogs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Lang(usize);

impl Lang {
    /// The language with tag `tag`, if the console has it.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let tag = tag.trim().to_ascii_lowercase();
        catalogs()
            .languages
            .iter()
            .position(|l| l.tag.to_ascii_lowercase() == tag)
            .map(Lang)
    }

    /// The first language of an `Accept-Language` header the console has (by quality, then
    /// order; a regional tag falls back to its language), else English.
    pub fn negotiate(accept: &str) -> Lang {
        let mut wanted: Vec<(u32, usize, &str)> = accept
            .split(',')
            .enumerate()
            .filter_map(|(i, part)| {
                let mut it = part.split(';');
                let tag = it.next()?.trim();
                let q = it
                    .find_map(|p| p.trim().strip_prefix("q="))
                    .and_then(|q| q.parse::<f32>().ok())
                    .unwrap_or(1.0);
                (!tag.is_empty() && q > 0.0).then_some(((q * 1000.0) as u32, i, tag))
            })
            .collect();
        wanted.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        wanted
            .iter()
            .find_map(|(_, _, tag)| {
                Lang::from_tag(tag).or_else(|| Lang::from_tag(tag.split('-').next()?))
            })
            .unwrap_or_default()
    }

    pub fn tag(self) -> &'static str {
        &catalogs().languages[self.0].tag
    }

    /// Every language: (language, its name in itself).
    pub fn all() -> Vec<(Lang, String)> {
        (0..catalogs().languages.len())
            .map(|i| (Lang(i), Lang(i).t("language-name")))
            .collect()
    }

    /// The message `id`.
    pub fn t(self, id: &str) -> String {
        self.format(id, None)
    }

    /// The message `id` with its variables.
    pub fn ta(self, id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
        let mut a = FluentArgs::new();
        for (k, v) in args {
            a.set(*k, v.clone());
        }
        self.format(id, Some(&a))
    }

    fn format(self, id: &str, args: Option<&FluentArgs>) -> String {
        let all = &catalogs().languages;
        for l in [&all[self.0], &all[0]] {
            if let Some(pattern) = l.bundle.get_message(id).and_then(|m| m.value()) {
                let mut errors = Vec::new();
                return l
                    .bundle
                    .format_pattern(pattern, args, &mut errors)
                    .into_owned();
            }
        }
        id.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str) -> Vec<String> {
        let mut v: Vec<String> = text
            .lines()
            .filter(|l| !l.starts_with([' ', '#', '\t']) && l.contains(" ="))
            .map(|l| l.split(" =").next().unwrap().trim().to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn the_built_in_catalogs_have_the_same_messages_and_parse() {
        let en = ids(BUILT_IN[0].1);
        assert!(en.len() > 100, "{}", en.len());
        for (tag, text) in BUILT_IN {
            assert_eq!(ids(text), en, "{tag}");
            bundle(tag, text).unwrap();
        }
    }

    #[test]
    fn languages_are_negotiated_and_messages_fall_back_to_english() {
        let es = Lang::from_tag("es").unwrap();
        assert_eq!(Lang::negotiate("es-ES,es;q=0.9,en;q=0.8"), es);
        assert_eq!(Lang::negotiate("fr-FR, es;q=0.5, en;q=0.4"), es);
        assert_eq!(Lang::negotiate("de"), Lang::default());
        assert_eq!(Lang::negotiate(""), Lang::default());
        assert_eq!(es.t("sign-in"), "Iniciar sesión");
        assert_eq!(
            es.ta("round-of", &[("round", 2.into()), ("rounds", 5.into())]),
            "Ronda 2 de 5"
        );
        assert_eq!(es.t("no-such-message"), "no-such-message");
        let c = Catalogs::new(&[("fr".into(), "sign-in = Se connecter\n".into())]).unwrap();
        assert_eq!(c.languages.len(), 3);
        assert!(Catalogs::new(&[("xx".into(), "= broken".into())]).is_err());
    }
}
