//! Permissions as Discord computes them, for members and the bot: a member's base
//! permissions are those of @everyone and of their roles together (everything for the guild's
//! owner or with ADMINISTRATOR); in a channel, its permission overwrites apply in Discord's
//! order: @everyone's, then the member's roles' together (denials, then allowances), then the
//! member's own. A thread has its parent channel's. The result is what an interaction carries
//! (`member.permissions`, `app_permissions`) and what the channel routes check before they
//! accept a message from the bot. (Interaction callbacks and follow-ups are not subject to
//! them, as on Discord.)

use super::answer::Refusal;

pub const ADMINISTRATOR: u64 = 1 << 3;
pub const VIEW_CHANNEL: u64 = 1 << 10;
pub const SEND_MESSAGES: u64 = 1 << 11;
pub const EMBED_LINKS: u64 = 1 << 14;
pub const ATTACH_FILES: u64 = 1 << 15;

/// Every permission bit Discord defines today.
pub const ALL_PERMISSIONS: u64 = 2_251_799_813_685_247;

/// What the bot holds in the test guild unless a test says otherwise: everything but
/// ADMINISTRATOR (so channel overwrites apply to it) and the thread permissions
/// (CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS), so a game stays in its channel unless a
/// test grants them (`FakeDiscord::allow_threads`).
pub const DEFAULT_BOT_PERMISSIONS: u64 = ALL_PERMISSIONS
    & !(ADMINISTRATOR
        | super::threads::CREATE_PUBLIC_THREADS
        | super::threads::SEND_MESSAGES_IN_THREADS);

/// What @everyone holds in the test guild unless a test says otherwise: everything but
/// ADMINISTRATOR, so every member may play anywhere until a test takes something away.
pub const DEFAULT_EVERYONE_PERMISSIONS: u64 = ALL_PERMISSIONS & !ADMINISTRATOR;

/// Whom a channel's permission overwrite is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverwriteTarget {
    /// The guild's @everyone role.
    Everyone,
    Role(u64),
    Member(u64),
}

/// A channel's permission overwrite: bits allowed and denied there for its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overwrite {
    pub target: OverwriteTarget,
    pub allow: u64,
    pub deny: u64,
}

/// A member's base permissions in the guild: @everyone's and their roles', together;
/// everything with ADMINISTRATOR.
pub fn base_permissions(everyone: u64, roles: impl IntoIterator<Item = u64>) -> u64 {
    let base = roles.into_iter().fold(everyone, |bits, role| bits | role);
    if base & ADMINISTRATOR != 0 {
        ALL_PERMISSIONS
    } else {
        base
    }
}

/// A member's permissions in a channel, from their base permissions and the channel's
/// overwrites, in Discord's order. ADMINISTRATOR passes every overwrite.
pub fn channel_permissions(base: u64, member: u64, roles: &[u64], overwrites: &[Overwrite]) -> u64 {
    if base & ADMINISTRATOR != 0 {
        return ALL_PERMISSIONS;
    }
    let apply = |bits: u64, allow: u64, deny: u64| (bits & !deny) | allow;
    let mut bits = base;
    for o in overwrites
        .iter()
        .filter(|o| o.target == OverwriteTarget::Everyone)
    {
        bits = apply(bits, o.allow, o.deny);
    }
    let (allow, deny) = overwrites
        .iter()
        .filter(|o| matches!(o.target, OverwriteTarget::Role(role) if roles.contains(&role)))
        .fold((0, 0), |(allow, deny), o| (allow | o.allow, deny | o.deny));
    bits = apply(bits, allow, deny);
    for o in overwrites
        .iter()
        .filter(|o| o.target == OverwriteTarget::Member(member))
    {
        bits = apply(bits, o.allow, o.deny);
    }
    bits
}

/// What a message needs beyond seeing the channel and sending in it.
#[derive(Debug, Clone, Copy, Default)]
pub struct MessageNeeds {
    pub embeds: bool,
    pub files: bool,
}

/// Checks a message posted (or edited) in a channel where the bot holds `bits`; on a refusal,
/// names the permission that was missing.
pub fn check_message(bits: u64, needs: MessageNeeds) -> Result<(), (Refusal, &'static str)> {
    let required = [
        (true, VIEW_CHANNEL, "VIEW_CHANNEL"),
        (true, SEND_MESSAGES, "SEND_MESSAGES"),
        (needs.embeds, EMBED_LINKS, "EMBED_LINKS"),
        (needs.files, ATTACH_FILES, "ATTACH_FILES"),
    ];
    match required
        .iter()
        .find(|(needed, bit, _)| *needed && bits & bit == 0)
    {
        Some((_, _, name)) => Err((Refusal::MissingPermissions, name)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROLE: u64 = 7;
    const OTHER_ROLE: u64 = 8;
    const MEMBER: u64 = 42;

    fn overwrite(target: OverwriteTarget, allow: u64, deny: u64) -> Overwrite {
        Overwrite {
            target,
            allow,
            deny,
        }
    }

    #[test]
    fn overwrites_apply_everyone_then_roles_then_the_member() {
        let base = base_permissions(VIEW_CHANNEL | SEND_MESSAGES, []);
        let announcements = [overwrite(OverwriteTarget::Everyone, 0, SEND_MESSAGES)];
        assert_eq!(
            channel_permissions(base, MEMBER, &[], &announcements),
            VIEW_CHANNEL
        );
        // A role's allowance beats @everyone's denial.
        let with_role = [
            announcements[0],
            overwrite(OverwriteTarget::Role(ROLE), SEND_MESSAGES, 0),
        ];
        assert_eq!(
            channel_permissions(base, MEMBER, &[ROLE], &with_role),
            VIEW_CHANNEL | SEND_MESSAGES
        );
        // Of two roles, an allowance beats a denial; the member's own overwrite beats both.
        let both = [
            overwrite(OverwriteTarget::Role(ROLE), SEND_MESSAGES, 0),
            overwrite(OverwriteTarget::Role(OTHER_ROLE), 0, SEND_MESSAGES),
        ];
        assert_ne!(
            channel_permissions(base, MEMBER, &[ROLE, OTHER_ROLE], &both) & SEND_MESSAGES,
            0
        );
        let member_denied = [
            with_role[1],
            overwrite(OverwriteTarget::Member(MEMBER), 0, SEND_MESSAGES),
        ];
        assert_eq!(
            channel_permissions(base, MEMBER, &[ROLE], &member_denied) & SEND_MESSAGES,
            0
        );
    }

    #[test]
    fn administrator_passes_every_overwrite() {
        let base = base_permissions(VIEW_CHANNEL, [ADMINISTRATOR]);
        let denied = [overwrite(OverwriteTarget::Everyone, 0, ALL_PERMISSIONS)];
        assert_eq!(
            channel_permissions(base, MEMBER, &[], &denied),
            ALL_PERMISSIONS
        );
    }
}
