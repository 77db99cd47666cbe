"""Linking accounts to players: a request, the staff's decision, ending a link, and what a link
allows (playing as the player, seeing his full birth date), for every persona."""

import datetime
import json

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import AuditEntry
from accounts.roles import FEDERATION_ADMINS, PLAYERS, role
from players import selectors, services
from players.models import Player, PlayerLink
from tests.base import PASSWORD, BaseTestCase, assert_refused
from tests.players.factories import PlayerFactory

D = datetime.date
BIRTH = D(2016, 3, 14)


class LinkTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        User = get_user_model()
        cls.staff = User.objects.create_user("staff", "staff@example.org", PASSWORD)
        cls.staff.groups.add(Group.objects.get(name=FEDERATION_ADMINS))
        cls.other_parent = User.objects.create_user("other_parent", "other.parent@example.org", PASSWORD)
        cls.other_parent.groups.add(role(PLAYERS))
        cls.child = PlayerFactory(family_name="Смирнова", given_names="Анна", birth_date=BIRTH)
        cls.adult = PlayerFactory(family_name="Orlov", given_names="Oleg", birth_date=D(1980, 1, 2))

    def ask(self, **extra):
        data = {"relation": "parent", "federation_id": self.child.federation_id, "evidence": "Club Pawn, coach Ivanov"}
        return self.client.post(reverse("players:link_request"), {**data, **extra})

    def confirmed(self, user, player, relation="parent"):
        link = services.link_request(user=user, relation=relation, player=player)
        return services.link_decide(link=link, admin=self.admin, confirm=True)

    def test_it_lets_a_parent_ask_and_see_his_request(self):
        self.login(self.player_user)
        page = self.client.get(reverse("players:link_request"))
        self.assertContains(page, "The federation's staff check the request")
        self.assertRedirects(self.ask(), reverse("players:my_links"))
        link = PlayerLink.objects.get()
        assert (link.user, link.player, link.relation, link.status) == (
            self.player_user,
            self.child,
            "parent",
            "pending",
        )
        self.assertContains(self.client.get(reverse("players:my_links")), "pending review")
        assert not selectors.plays_as(self.player_user, self.child)
        # Asking twice is refused with a message, and changes nothing.
        response = self.ask()
        self.assertContains(response, "You have asked for this player already.", status_code=400)
        assert PlayerLink.objects.count() == 1

    def test_it_creates_the_new_member_on_confirmation_and_audits_it(self):
        self.login(self.player_user)
        response = self.ask(
            relation="self",
            federation_id="",
            new_family_name="Новиков",
            new_given_names="Пётр",
            new_birth_date="2001-02-03",
        )
        self.assertRedirects(response, reverse("players:my_links"))
        link = PlayerLink.objects.get()
        assert link.player is None
        count = Player.objects.count()
        self.login(self.staff)
        response = self.client.post(reverse("players:link_decide", args=[link.pk]), {"decision": "confirm"})
        self.assertRedirects(response, reverse("players:link_queue"))
        link.refresh_from_db()
        assert link.status == "confirmed" and link.decided_by == self.staff and link.decided_at
        assert Player.objects.count() == count + 1
        assert (link.player.family_name, link.player.given_names, link.player.birth_date) == (
            "Новиков",
            "Пётр",
            D(2001, 2, 3),
        )
        entry = AuditEntry.objects.get(action="player_link_confirmed")
        assert (entry.actor, entry.object_id, entry.after["created"]) == (self.staff, str(link.pk), True)
        assert selectors.plays_as(self.player_user, link.player)
        assert selectors.linked_players(self.player_user) == [link.player]
        assert mail.outbox[-1].to == ["parent@example.org"] and "confirmed" in mail.outbox[-1].body

    def test_it_needs_a_reason_to_reject_and_records_the_rejection(self):
        link = services.link_request(user=self.player_user, relation="parent", player=self.child)
        self.login(self.staff)
        self.client.post(reverse("players:link_decide", args=[link.pk]), {"decision": "reject", "reason": ""})
        link.refresh_from_db()
        assert link.status == "pending" and not AuditEntry.objects.exists()
        self.client.post(reverse("players:link_decide", args=[link.pk]), {"decision": "reject", "reason": "Not known"})
        link.refresh_from_db()
        assert (link.status, link.reason, link.decided_by) == ("rejected", "Not known", self.staff)
        assert AuditEntry.objects.get(action="player_link_rejected").reason == "Not known"
        assert not selectors.plays_as(self.player_user, self.child)
        self.login(self.player_user)
        self.assertContains(self.client.get(reverse("players:my_links")), "Not known")

    def test_it_lets_the_holder_or_staff_revoke_a_link_and_hides_it_from_other_accounts(self):
        link = self.confirmed(self.player_user, self.child)
        self.login(self.other_parent)
        assert self.client.post(reverse("players:link_revoke", args=[link.pk])).status_code == 404
        self.assertNotContains(self.client.get(reverse("players:my_links")), self.child.full_name)
        link.refresh_from_db()
        assert link.status == "confirmed"
        self.login(self.player_user)
        self.assertRedirects(
            self.client.post(reverse("players:link_revoke", args=[link.pk])), reverse("players:my_links")
        )
        link.refresh_from_db()
        assert (link.status, link.revoked_by) == ("revoked", self.player_user)
        assert not selectors.plays_as(self.player_user, self.child)
        assert AuditEntry.objects.filter(action="player_link_revoked", actor=self.player_user).exists()
        other = self.confirmed(self.other_parent, self.child)
        self.login(self.staff)
        self.client.post(reverse("players:link_revoke", args=[other.pk]), {"reason": "a court order"})
        other.refresh_from_db()
        assert (other.status, other.revoked_by) == ("revoked", self.staff)

    def test_it_refuses_in_the_database_two_own_accounts_per_player_and_two_players_per_account(self):
        self.confirmed(self.player_user, self.adult, relation="self")
        now = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
        decided = {"status": "confirmed", "decided_by": self.admin, "decided_at": now, "relation": "self"}
        assert_refused(PlayerLink.objects.create, user=self.other_parent, player=self.adult, **decided)
        assert_refused(PlayerLink.objects.create, user=self.player_user, player=self.child, **decided)
        assert_refused(PlayerLink.objects.create, user=self.other_parent, player=None, relation="parent")
        assert_refused(
            PlayerLink.objects.create,
            user=self.other_parent,
            player=self.child,
            relation="parent",
            status="rejected",
            decided_by=self.admin,
            decided_at=now,
            reason="",
        )
        # Parents are not limited: two parents for one child, a parent of several children.
        self.confirmed(self.player_user, self.child)
        self.confirmed(self.other_parent, self.child)
        third = PlayerFactory()
        self.confirmed(self.player_user, third)
        assert {p.pk for p in selectors.linked_players(self.player_user)} == {self.adult.pk, self.child.pk, third.pk}

    def test_it_refuses_a_second_own_account_on_confirmation_and_changes_nothing(self):
        first = services.link_request(user=self.player_user, relation="self", player=self.adult)
        second = services.link_request(user=self.other_parent, relation="self", player=self.adult)
        services.link_decide(link=first, admin=self.admin, confirm=True)
        self.login(self.staff)
        self.client.post(reverse("players:link_decide", args=[second.pk]), {"decision": "confirm"})
        second.refresh_from_db()
        assert second.status == "pending"
        assert not AuditEntry.objects.filter(object_id=str(second.pk)).exists()

    def test_it_keeps_the_anonymous_and_the_players_out_of_the_review(self):
        link = services.link_request(user=self.player_user, relation="parent", player=self.child)
        for url in (reverse("players:link_request"), reverse("players:my_links")):
            response = self.client.get(url)
            assert response.status_code == 302 and response.url.startswith(reverse("login")), url
        assert self.client.post(reverse("players:link_revoke", args=[link.pk])).status_code == 302
        for user in (None, self.player_user, self.arbiter):
            self.client.logout()
            if user:
                self.login(user)
            assert self.client.get(reverse("players:link_queue")).status_code in (302, 403)
            response = self.client.post(reverse("players:link_decide", args=[link.pk]), {"decision": "confirm"})
            assert response.status_code in (302, 403)
            if response.status_code == 302:
                assert response.url.startswith(reverse("login"))
        link.refresh_from_db()
        assert link.status == "pending"

    def test_it_shows_the_review_list_with_duplicates_in_a_fixed_number_of_queries(self):
        twin = PlayerFactory(family_name="Смирнова", given_names="Анна", birth_date=BIRTH)
        services.link_request(user=self.player_user, relation="parent", player=self.child)
        services.link_request(
            user=self.other_parent,
            relation="parent",
            new_family_name="Смирнова",
            new_given_names="Анна",
            new_birth_date=BIRTH,
        )
        self.login(self.staff)
        with CaptureQueriesContext(connection) as few:
            page = self.client.get(reverse("players:link_queue"))
        self.assertContains(page, twin.get_absolute_url())
        self.assertContains(page, self.child.get_absolute_url())
        assert len(page.context["pending"][0].duplicates) == 1
        assert {p.pk for p in page.context["pending"][1].duplicates} == {self.child.pk, twin.pk}
        for n in range(5):
            user = get_user_model().objects.create_user(f"u{n}", f"u{n}@example.org", PASSWORD)
            services.link_request(user=user, relation="self", player=PlayerFactory())
        with CaptureQueriesContext(connection) as many:
            self.client.get(reverse("players:link_queue"))
        assert len(many) == len(few)

    def test_it_offers_the_link_on_the_player_page_and_shows_staff_the_accounts(self):
        url = self.child.get_absolute_url()
        self.assertNotContains(self.client.get(url), 'id="link-offer"')
        self.login(self.player_user)
        self.assertContains(
            self.client.get(url), reverse("players:link_request") + f"?player={self.child.federation_id}"
        )
        self.confirmed(self.player_user, self.child)
        page = self.client.get(url)
        self.assertNotContains(page, 'id="link-offer"')
        self.assertNotContains(page, 'id="linked-accounts"')
        self.login(self.staff)
        self.assertContains(self.client.get(url), "parent (parent or guardian, confirmed)")

    def test_it_lets_an_account_play_as_the_player_only_for_a_confirmed_link(self):
        link = services.link_request(user=self.player_user, relation="self", player=self.adult)
        assert not selectors.plays_as(self.player_user, self.adult)
        services.link_decide(link=link, admin=self.admin, confirm=True)
        assert selectors.plays_as(self.player_user, self.adult)
        assert not selectors.plays_as(self.player_user, self.child)
        assert not selectors.plays_as(self.other_parent, self.adult)
        from django.contrib.auth.models import AnonymousUser

        assert not selectors.plays_as(AnonymousUser(), self.adult)

    def test_it_shows_the_linked_parent_his_childs_full_birth_date_but_not_another_parent(self):
        self.confirmed(self.player_user, self.child)
        self.login(self.player_user)
        self.assertContains(self.client.get(self.child.get_absolute_url()), '<dd id="birth">2016-03-14</dd>', html=True)
        data = json.loads(self.client.get(f"/api/players/{self.child.federation_id}/").content)
        assert data["birth_date"] == "2016-03-14"
        # His link is to the child only.
        self.assertContains(self.client.get(self.adult.get_absolute_url()), '<dd id="birth">1980</dd>', html=True)
        self.login(self.other_parent)
        self.assertContains(self.client.get(self.child.get_absolute_url()), '<dd id="birth">2016</dd>', html=True)
        assert "birth_date" not in json.loads(self.client.get(f"/api/players/{self.child.federation_id}/").content)

    def test_it_speaks_russian(self):
        self.login(self.player_user)
        page = self.client.get(reverse("players:link_request"), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(page, "Привязать учётную запись к игроку")
        self.assertContains(page, "Мой ребёнок (я родитель или опекун)")
        player_page = self.client.get(self.child.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(player_page, "Это я / мой ребёнок")

    def test_it_lists_links_in_the_admin_but_changes_none(self):
        link = self.confirmed(self.player_user, self.child)
        self.login(self.admin)
        self.assertContains(self.client.get(reverse("admin:players_playerlink_changelist")), "parent or guardian")
        response = self.client.post(reverse("admin:players_playerlink_delete", args=[link.pk]), {"post": "yes"})
        assert response.status_code == 403
        assert PlayerLink.objects.filter(pk=link.pk, status="confirmed").exists()

    def test_it_moves_a_link_to_a_record_merged_since_the_request_to_the_survivor(self):
        duplicate = PlayerFactory(family_name="Смирнова", given_names="Анна", birth_date=BIRTH)
        link = services.link_request(user=self.player_user, relation="parent", player=duplicate)
        Player.objects.filter(pk=duplicate.pk).update(merged_into=self.child)
        services.link_decide(link=link, admin=self.admin, confirm=True)
        assert selectors.plays_as(self.player_user, self.child)
        assert not selectors.plays_as(self.player_user, duplicate)

    def test_it_shows_the_review_list_in_this_many_queries(self):
        services.link_request(user=self.player_user, relation="parent", player=self.child)
        self.login(self.staff)
        # The session, the account, its permissions (2), the pending links, the possible duplicates.
        with self.assertNumQueries(6):
            self.client.get(reverse("players:link_queue"))

    def test_it_gives_bad_requests_a_clear_message_and_changes_nothing(self):
        computer = PlayerFactory(kind=Player.Kind.COMPUTER, birth_date=None, birth_precision="unknown")
        self.login(self.player_user)
        cases = [
            ({"federation_id": "999999999"}, "No player has this federation id."),
            ({"federation_id": "", "new_family_name": "Новиков"}, "A new player needs his birth date"),
            ({"federation_id": "", "new_birth_date": "2015-01-01"}, "Give the player&#x27;s federation id"),
            ({"relation": "uncle"}, "Select a valid choice."),
            ({"federation_id": computer.federation_id}, "A computer program is not linked to an account."),
        ]
        for extra, message in cases:
            self.assertContains(self.ask(**extra), message, status_code=400)
        self.confirmed(self.other_parent, self.adult, relation="self")
        self.assertContains(
            self.ask(relation="self", federation_id=self.adult.federation_id),
            "linked to another account",
            status_code=400,
        )
        assert not PlayerLink.objects.filter(user=self.player_user).exists()
