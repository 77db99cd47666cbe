from django.core.files.storage import FileSystemStorage


class PrivateStorage(FileSystemStorage):
    """Files that only the application reads (result files, evidence): they have no address."""

    def url(self, name):
        raise ValueError("private files have no public address")
