"""Following players: through the views for every persona, the page, the e-mail once per tournament."""

import datetime

from django.contrib.auth import get_user_model
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from players.models import Follow
from players.services import player_follow
from ratings import services as rating_services
from ratings.tasks import rate_tournament
from tests.base import PASSWORD, BaseTestCase
from tests.players.factories import PlayerFactory
from tests.ratings.scenario import make_tournament
from tournaments.follower_notices import followers_notify, followers_notify_many
from tournaments.models import Tournament

D = datetime.date
# Notices are for tournaments of the last weeks: the dates follow today's.
RECENT = datetime.date.today() - datetime.timedelta(days=10)  # noqa: DTZ011


class FollowTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.kid = PlayerFactory(family_name="Orlova", given_names="Olga", birth_date=D(2012, 4, 4))

    def follow(self, player=None, **data):
        return self.client.post(reverse("players:follow", args=[(player or self.kid).federation_id]), data)

    def test_it_lets_a_player_or_parent_follow_from_the_player_page(self):
        self.login(self.player_user)
        page = self.client.get(self.kid.get_absolute_url())
        self.assertContains(page, 'id="follow-form"')
        response = self.follow(action="follow")
        self.assertRedirects(response, self.kid.get_absolute_url())
        follow = Follow.objects.get()
        assert (follow.user, follow.player, follow.notify) == (self.player_user, self.kid, True)
        self.assertContains(self.client.get(self.kid.get_absolute_url()), "Following")
        # Following twice is one follow.
        self.follow(action="follow")
        assert Follow.objects.count() == 1
        self.follow(action="unfollow")
        assert not Follow.objects.exists()

    def test_it_keeps_the_anonymous_and_accounts_without_the_role_out(self):
        response = self.follow(action="follow")
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
        response = self.client.get(reverse("players:following"))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
        self.assertContains(self.client.get(self.kid.get_absolute_url()), "Log in to follow this player")
        stranger = get_user_model().objects.create_user("stranger", "s@example.org", PASSWORD)
        self.login(stranger)
        assert self.follow(action="follow").status_code == 403
        assert not Follow.objects.exists()
        self.login(self.player_user)
        assert self.client.get(reverse("players:follow", args=[self.kid.federation_id])).status_code == 405

    def test_it_follows_the_kept_record_of_a_merged_duplicate(self):
        keep = PlayerFactory()
        duplicate = PlayerFactory(merged_into=keep)
        self.login(self.player_user)
        self.follow(duplicate, action="follow")
        assert Follow.objects.get().player == keep

    def test_it_never_redirects_off_the_site(self):
        self.login(self.player_user)
        response = self.follow(action="follow", next="https://evil.example.org/")
        self.assertRedirects(response, self.kid.get_absolute_url())

    def test_it_lists_the_followed_players_with_ratings_in_three_queries(self):
        others = [PlayerFactory(birth_date=D(2012, 1, n + 1)) for n in range(7)]
        tournament = make_tournament("Spring cup", D(2026, 3, 10), [self.kid, *others], seed=3)
        rating_services.rating_run(tournament_id=tournament.pk)
        unrated = PlayerFactory(family_name="Newcomer")
        for player in [self.kid, *others, unrated]:
            player_follow(user=self.player_user, player=player)
        self.login(self.player_user)
        # Session, user, follows, ratings, latest changes, and the two permission reads of the menu.
        with self.assertNumQueries(7):
            page = self.client.get(reverse("players:following"))
        self.assertContains(page, "Orlova, Olga")
        self.assertContains(page, "Spring cup", count=8)
        self.assertContains(page, "Newcomer")
        other_user = get_user_model().objects.create_user("other", "o@example.org", PASSWORD)
        self.login(other_user)
        self.assertContains(self.client.get(reverse("players:following")), "You do not follow anyone yet")

    def test_it_turns_the_mail_off_and_on(self):
        player_follow(user=self.player_user, player=self.kid)
        self.login(self.player_user)
        self.follow(action="settings", notify="off", next=reverse("players:following"))
        assert Follow.objects.get().notify is False
        self.follow(action="settings", notify="on")
        assert Follow.objects.get().notify is True


@override_settings(SITE_URL="https://ratings.example.org")
class FollowerMailTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.kids = [PlayerFactory(birth_date=D(2012, 1, n + 1)) for n in range(8)]
        cls.kid = cls.kids[0]
        cls.coach = get_user_model().objects.create_user("coach", "coach@example.org", PASSWORD)

    def test_it_mails_each_follower_once_when_the_tournament_is_first_rated(self):
        player_follow(user=self.player_user, player=self.kid)
        player_follow(user=self.player_user, player=self.kids[1])
        player_follow(user=self.coach, player=self.kids[2], notify=False)
        tournament = make_tournament("Autumn cup", RECENT, self.kids, seed=5)
        rate_tournament.delay(tournament.pk)  # eager: the run, then the notices
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.RATED and tournament.followers_notified_at
        notices = [m for m in mail.outbox if "Autumn cup" in m.subject]
        assert [m.to for m in notices] == [[self.player_user.email]]
        body = notices[0].body
        assert self.kid.full_name in body and self.kids[1].full_name in body
        assert "first rating" in body and "ORR" in body
        assert f"https://ratings.example.org{tournament.get_absolute_url()}" in body
        assert "https://ratings.example.org/players/following/" in body
        # A re-rating (a late upload before it) mails nobody again.
        rating_services.rerate_since(since=RECENT - datetime.timedelta(days=30))
        assert followers_notify(tournament_id=tournament.pk) == 0
        assert len([m for m in mail.outbox if "Autumn cup" in m.subject]) == 1

    def test_it_marks_old_and_unfollowed_tournaments_without_mail(self):
        player_follow(user=self.player_user, player=self.kid)
        old = make_tournament("Imported 2009 cup", D(2009, 5, 1), self.kids, seed=7)
        unfollowed = make_tournament("Other cup", RECENT, self.kids[3:], seed=8)
        rating_services.rerate_since(since=None)
        with self.assertNumQueries(2):  # which of them have followed players, then one update
            assert followers_notify_many(tournament_ids=[old.pk, unfollowed.pk]) == 0
        assert not mail.outbox
        assert not Tournament.objects.filter(followers_notified_at__isnull=True).exists()

    def test_it_mails_nobody_about_a_tournament_not_rated(self):
        player_follow(user=self.player_user, player=self.kid)
        tournament = make_tournament("Queued cup", RECENT, self.kids, seed=6)
        assert followers_notify(tournament_id=tournament.pk) == 0
        tournament.refresh_from_db()
        assert tournament.followers_notified_at is None
        assert not mail.outbox

    def test_it_writes_points_the_chess_way(self):
        from decimal import Decimal

        from tournaments.follower_notices import _points

        assert [_points(Decimal(x)) for x in ("0", "0.5", "4", "4.5")] == ["0", "½", "4", "4½"]
