import { shell, showMessage } from "/console/console.js";

shell();
const form = document.getElementById("sign-in");
form.addEventListener("submit", async event => {
  event.preventDefault();
  const token = document.getElementById("token").value.trim();
  const response = await fetch("/api/whoami", { headers: { "Authorization": "Bearer " + token } });
  if (response.ok) {
    sessionStorage.setItem("buzz-operator-token", token);
    location.href = "/console/flags.html";
  } else if (response.status === 429) {
    // Past the admin port's limit of wrong tokens: the right one would still be accepted now.
    const seconds = response.headers.get("Retry-After");
    showMessage(document.getElementById("message"), "error",
      "That token was not accepted, and too many wrong tokens came from this address: check it before "
      + "trying again (more wrong ones are refused at once for " + seconds + " s).");
  } else {
    showMessage(document.getElementById("message"), "error", "That token was not accepted.");
  }
});
